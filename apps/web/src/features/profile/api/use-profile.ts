import type { ProfilePatch, User } from '@digest/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { errorMessage } from '#web/lib/api-client';
import { notifyError, notifySuccess } from '#web/lib/notify';
import { endSession } from '#web/lib/session/session';
import { isProfileComplete, setMe } from '#web/lib/session/use-me';
import { browserTimeZone, timezoneValue } from '../lib/timezones';
import {
  cancelEmailChange,
  changeEmail,
  changePassword,
  deleteAccount,
  deletePhoto,
  resendVerification,
  updateProfile,
  uploadPhoto,
} from './users-api';

const showError = (error: unknown) => notifyError(errorMessage(error));

/** `PATCH /users/me`; the answer replaces the cached user. Errors are left to the caller. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['users', 'me', 'update'],
    mutationFn: (patch: ProfilePatch) => updateProfile(patch),
    onSuccess: (user) => setMe(queryClient, user),
  });
}

export function useChangePassword() {
  return useMutation({
    mutationKey: ['users', 'me', 'password'],
    mutationFn: changePassword,
  });
}

export function useUploadPhoto() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['users', 'me', 'photo', 'upload'],
    mutationFn: (image: Blob) => uploadPhoto(image),
    onSuccess: (user) => setMe(queryClient, user),
    onError: showError,
  });
}

export function useDeletePhoto() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['users', 'me', 'photo', 'delete'],
    mutationFn: deletePhoto,
    onSuccess: (user) => setMe(queryClient, user),
    onError: showError,
  });
}

/**
 * Deletes the account, then clears the token; the guards show /login (docs/product.md §4). Errors (a wrong
 * password, a sign-in too old) are left to the dialog, which shows them beside the field.
 */
export function useDeleteAccount() {
  return useMutation({
    mutationKey: ['users', 'me', 'delete'],
    mutationFn: deleteAccount,
    onSuccess: (response) => {
      endSession();
      notifySuccess(response.message);
    },
  });
}

/** `POST /users/me/email`; the answer (with the pending address) replaces the cached user. */
export function useChangeEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['users', 'me', 'email'],
    mutationFn: changeEmail,
    onSuccess: (user) => setMe(queryClient, user),
  });
}

export function useCancelEmailChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['users', 'me', 'email', 'cancel'],
    mutationFn: cancelEmailChange,
    onSuccess: (user) => setMe(queryClient, user),
    onError: showError,
  });
}

/**
 * docs/product.md §4 "Default timezone": a user without a time zone gets the browser's, saved once the profile is
 * complete (the onboarding saves it too).
 */
export function useDefaultTimezone(user: User | undefined) {
  const queryClient = useQueryClient();
  const tried = useRef<string | null>(null);
  const needsZone = user !== undefined && user.timezone === null && isProfileComplete(user);
  const userId = user?.userId;
  useEffect(() => {
    if (!needsZone || !userId || tried.current === userId) return;
    tried.current = userId;
    updateProfile({ timezone: timezoneValue(browserTimeZone()) })
      .then((updated) => setMe(queryClient, updated))
      .catch(() => {
        // Not worth a toast: the edit profile page still offers the browser's zone.
      });
  }, [needsZone, userId, queryClient]);
}

/** Resend of the verify-your-address banner and of a pending e-mail change. */
export function useResendVerification() {
  return useMutation({
    mutationKey: ['users', 'me', 'email', 'resend'],
    mutationFn: resendVerification,
    onSuccess: (response) => notifySuccess(response.message),
    onError: showError,
  });
}
