import {
  type ChangePasswordBody,
  messageResponseSchema,
  type ProfilePatch,
  type User,
  userResponseSchema,
} from '@digest/contracts';
import { api } from '#web/lib/api-client';

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

export function deleteAccount(): Promise<{ message: string }> {
  return api.delete('/users/me', { schema: messageResponseSchema });
}
