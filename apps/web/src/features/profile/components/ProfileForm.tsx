import {
  BIO_MAX_LENGTH,
  fullNameSchema,
  isStrongPassword,
  PASSWORD_MIN_LENGTH,
  PROFILE_PASSWORD_MESSAGE,
  type ProfilePatch,
  SIGNUP_PASSWORD_MESSAGE,
  type User,
  usernameSchema,
} from '@digest/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import * as z from 'zod/mini';
import { Button } from '#web/components/ui/Button';
import { SelectField } from '#web/components/ui/SelectField';
import { TextArea } from '#web/components/ui/TextArea';
import { TextField } from '#web/components/ui/TextField';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { notifyError, notifySuccess } from '#web/lib/notify';
import { reloadMeSoon } from '#web/lib/session/use-me';
import { useChangePassword, useUpdateProfile } from '../api/use-profile';
import { browserTimeZone, timeZoneOptions, timezoneValue } from '../lib/timezones';
import { usernameHint } from '../lib/username-change';
import styles from './ProfileForm.module.css';

export const PASSWORD_MISMATCH_MESSAGE = 'New Password and Confirm Password should match';
export const OLD_PASSWORD_MISSING_MESSAGE = 'Enter your current password to change it';
export const NEW_PASSWORD_MISSING_MESSAGE = 'Enter the new password';
export const PROFILE_SAVED_MESSAGE = 'Your profile has been saved.';
export const NOTHING_TO_SAVE_MESSAGE = 'There are no changes to save.';

/** docs/product.md §5 profile passwords: optional, at least 8 characters when given. */
const optionalPassword = z.string().check(
  z.refine((value) => value === '' || value.length >= PASSWORD_MIN_LENGTH, {
    error: PROFILE_PASSWORD_MESSAGE,
  }),
);

const profileFormSchema = z
  .object({
    fullName: fullNameSchema,
    username: usernameSchema,
    timezone: z.string().check(z.minLength(1)),
    bio: z
      .string()
      .check(z.maxLength(BIO_MAX_LENGTH, { error: `Bio should have at most ${BIO_MAX_LENGTH} characters` })),
    oldPassword: optionalPassword,
    newPassword: optionalPassword,
    confirmPassword: optionalPassword,
  })
  .check(
    z.superRefine((values, context) => {
      if (values.newPassword && !values.oldPassword) {
        context.addIssue({ code: 'custom', path: ['oldPassword'], message: OLD_PASSWORD_MISSING_MESSAGE });
      }
      // The server asks the same of a new password as the sign-up does (the log-in form refuses weaker).
      if (values.newPassword.length >= PASSWORD_MIN_LENGTH && !isStrongPassword(values.newPassword)) {
        context.addIssue({ code: 'custom', path: ['newPassword'], message: SIGNUP_PASSWORD_MESSAGE });
      }
      if (values.oldPassword && !values.newPassword) {
        context.addIssue({ code: 'custom', path: ['newPassword'], message: NEW_PASSWORD_MISSING_MESSAGE });
      }
      if (values.newPassword && values.newPassword !== values.confirmPassword) {
        context.addIssue({ code: 'custom', path: ['confirmPassword'], message: PASSWORD_MISMATCH_MESSAGE });
      }
    }),
  );

interface ProfileFormValues {
  fullName: string;
  username: string;
  timezone: string;
  bio: string;
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

function formValues(user: User): ProfileFormValues {
  return {
    fullName: user.fullName ?? '',
    username: user.username ?? '',
    timezone: user.timezone?.timezone ?? browserTimeZone(),
    bio: user.bio ?? '',
    oldPassword: '',
    newPassword: '',
    confirmPassword: '',
  };
}

/** Only the fields that changed (docs/product.md §4), the time zone included when it changed. */
function changedFields(user: User, values: ProfileFormValues): ProfilePatch {
  const patch: ProfilePatch = {};
  const fullName = values.fullName.trim().replace(/\s+/g, ' ');
  if (fullName !== (user.fullName ?? '')) patch.fullName = fullName;
  const username = values.username.trim();
  if (username !== (user.username ?? '')) patch.username = username;
  const bio = values.bio.trim();
  if (bio !== (user.bio ?? '')) patch.bio = bio;
  if (values.timezone !== user.timezone?.timezone) patch.timezone = timezoneValue(values.timezone);
  return patch;
}

/**
 * docs/product.md §2/§4 Edit profile form: Full Name, Username, Timezone, password block, Bio, Save. The e-mail
 * address has its own card (EmailSection): a change asks for the password and waits for a confirmed link.
 */
export function ProfileForm({ user }: { user: User }) {
  const queryClient = useQueryClient();
  const canChangeCredentials = user.method === 'email';
  const update = useUpdateProfile();
  const password = useChangePassword();
  const [saving, setSaving] = useState(false);
  const zones = useMemo(
    () => timeZoneOptions([user.timezone?.timezone ?? '', browserTimeZone()]),
    [user.timezone],
  );
  const {
    register,
    handleSubmit,
    reset,
    getValues,
    setError,
    watch,
    formState: { errors },
  } = useForm<ProfileFormValues>({
    resolver: zodResolver(profileFormSchema),
    defaultValues: formValues(user),
  });

  const onSubmit = handleSubmit(async (values) => {
    const patch = changedFields(user, values);
    const changePassword = canChangeCredentials && values.oldPassword !== '' && values.newPassword !== '';
    if (Object.keys(patch).length === 0 && !changePassword) {
      notifySuccess(NOTHING_TO_SAVE_MESSAGE);
      return;
    }
    setSaving(true);
    let saved = user;
    try {
      if (Object.keys(patch).length > 0) {
        saved = await update.mutateAsync(patch);
        // Keep what is still being typed in the password block.
        const { oldPassword, newPassword, confirmPassword } = getValues();
        reset({ ...formValues(saved), oldPassword, newPassword, confirmPassword });
      }
      if (changePassword) {
        await password.mutateAsync({ oldPassword: values.oldPassword, newPassword: values.newPassword });
        // docs/product.md §4: on success the three fields clear.
        reset({ ...getValues(), oldPassword: '', newPassword: '', confirmPassword: '' });
      }
      notifySuccess(PROFILE_SAVED_MESSAGE);
      reloadMeSoon(queryClient);
    } catch (error) {
      const message = errorMessage(error);
      if (error instanceof ApiError) {
        if (error.code === 'USERNAME_TAKEN') setError('username', { message }, { shouldFocus: true });
        if (error.code === 'WRONG_PASSWORD') setError('oldPassword', { message }, { shouldFocus: true });
      }
      notifyError(message);
    } finally {
      setSaving(false);
    }
  });

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate aria-label="Edit profile">
      <TextField
        label="Full Name"
        autoComplete="name"
        error={errors.fullName?.message}
        {...register('fullName')}
      />
      <TextField
        label="Username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        hint={usernameHint(user, watch('username'))}
        error={errors.username?.message}
        {...register('username')}
      />
      <SelectField
        label="Timezone"
        options={zones}
        hint="Your digests are sent on this time zone's clock."
        error={errors.timezone?.message}
        {...register('timezone')}
      />
      {canChangeCredentials ? (
        <fieldset className={styles.passwords}>
          <legend className={styles.legend}>Change password</legend>
          <p className={styles.legendHint}>Leave these empty to keep your current password.</p>
          <TextField
            label="Current password"
            type="password"
            autoComplete="current-password"
            error={errors.oldPassword?.message}
            {...register('oldPassword')}
          />
          <div className={styles.pair}>
            <TextField
              label="New Password"
              type="password"
              autoComplete="new-password"
              error={errors.newPassword?.message}
              {...register('newPassword')}
            />
            <TextField
              label="Confirm Password"
              type="password"
              autoComplete="new-password"
              error={errors.confirmPassword?.message}
              {...register('confirmPassword')}
            />
          </div>
        </fieldset>
      ) : null}
      <TextArea
        label="Bio"
        rows={4}
        maxLength={BIO_MAX_LENGTH}
        hint="A few words about you. Your profile is public, like your digests."
        error={errors.bio?.message}
        {...register('bio')}
      />
      <div className={styles.actions}>
        <Button type="submit" loading={saving} className={styles.save}>
          Save
        </Button>
      </div>
    </form>
  );
}
