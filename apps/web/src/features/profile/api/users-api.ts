import {
  type ChangeEmailBody,
  type ChangePasswordBody,
  type DeleteAccountBody,
  messageResponseSchema,
  type ProfilePatch,
  type User,
  userResponseSchema,
} from '@digest/contracts';
import { api, apiRequest } from '#web/lib/api-client';

/** `PATCH /users/me` with only the fields that changed (docs/product.md §4). */
export function updateProfile(patch: ProfilePatch): Promise<User> {
  return api.patch('/users/me', patch, { schema: userResponseSchema }).then((body) => body.user);
}

export function changePassword(body: ChangePasswordBody): Promise<{ message: string }> {
  return api.patch('/users/me/password', body, { schema: messageResponseSchema });
}

/** Multipart upload, field `image` (docs/product.md §7); the server answers with the user and its new photo URL. */
export function uploadPhoto(image: Blob): Promise<User> {
  const form = new FormData();
  form.append('image', image, 'avatar.png');
  return api.patch('/users/me/photo', form, { schema: userResponseSchema }).then((body) => body.user);
}

export function deletePhoto(): Promise<User> {
  return api.delete('/users/me/photo', { schema: userResponseSchema }).then((body) => body.user);
}

/** With the current password (none for a social account, which needs a recent sign-in instead). */
export function deleteAccount(body: DeleteAccountBody): Promise<{ message: string }> {
  return apiRequest('/users/me', { method: 'DELETE', body, schema: messageResponseSchema });
}

/** The new address becomes pending; it takes effect when the link mailed to it is followed. */
export function changeEmail(body: ChangeEmailBody): Promise<User> {
  return api.post('/users/me/email', body, { schema: userResponseSchema }).then((response) => response.user);
}

export function cancelEmailChange(): Promise<User> {
  return api.delete('/users/me/email/pending', { schema: userResponseSchema }).then((body) => body.user);
}

/** Mails a new verification link: to the pending new address, else to the unconfirmed one. */
export function resendVerification(): Promise<{ message: string }> {
  return api.post('/auth/email/resend', undefined, { schema: messageResponseSchema });
}
