import { AppError } from '#server/platform/http/errors';

export const usersErrors = {
  accountGone: () => new AppError(404, 'ACCOUNT_NOT_FOUND', 'This account no longer exists.'),
  nothingToChange: () => new AppError(400, 'NOTHING_TO_CHANGE', 'Nothing to change'),
  usernameTaken: () => new AppError(409, 'USERNAME_TAKEN', 'This username is already taken.'),
  emailTaken: () => new AppError(409, 'EMAIL_TAKEN', 'An account with this e-mail already exists.'),
  emailChangeNotAllowed: () =>
    new AppError(
      403,
      'EMAIL_CHANGE_NOT_ALLOWED',
      'Your e-mail comes from the account you sign in with, so it cannot be changed here.',
    ),
  passwordChangeNotAllowed: () =>
    new AppError(
      403,
      'PASSWORD_CHANGE_NOT_ALLOWED',
      'You sign in with another account, so there is no password to change here.',
    ),
  wrongPassword: () => new AppError(400, 'WRONG_PASSWORD', 'Current password is incorrect.'),
  photoNotFound: () => new AppError(404, 'NOT_FOUND', 'No such photo.'),
};

/** Why an uploaded photo was refused: each answer says what to do instead. */
export const photoErrors = {
  missing: () =>
    new AppError(400, 'PHOTO_MISSING', 'Send the photo as multipart/form-data in the field "image".'),
  wrongField: (field: string) =>
    new AppError(400, 'PHOTO_MISSING', `Send the photo in the field "image", not "${field.slice(0, 40)}".`),
  extraParts: () =>
    new AppError(400, 'PHOTO_EXTRA_PARTS', 'Send only the photo, in the field "image", and nothing else.'),
  tooLarge: () => new AppError(413, 'PHOTO_TOO_LARGE', 'The photo must be 5 MB or smaller.'),
  unsupportedType: () =>
    new AppError(400, 'PHOTO_UNSUPPORTED_TYPE', 'The photo must be a JPEG, PNG, GIF or SVG image.'),
  unreadable: () =>
    new AppError(
      400,
      'PHOTO_UNREADABLE',
      'The photo could not be read: the file is damaged or not a complete image.',
    ),
  tooManyPixels: (megapixels: number) =>
    new AppError(
      400,
      'PHOTO_TOO_MANY_PIXELS',
      `The photo has too many pixels: at most ${megapixels} megapixels are accepted.`,
    ),
  tooSmall: () => new AppError(400, 'PHOTO_TOO_SMALL', 'The photo must be at least 100×100 pixels.'),
};
