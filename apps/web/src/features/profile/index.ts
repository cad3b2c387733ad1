/** The user's profile: the pages that show and edit it, its update, and the time zones it offers. */

export { useDefaultTimezone, useUpdateProfile } from './api/use-profile';
export { updateProfile } from './api/users-api';
export { VerifyAddressBanner } from './components/VerifyAddressBanner';
export {
  browserLocale,
  browserTimeZone,
  type TimeZoneOption,
  timeZoneOptions,
  timezoneValue,
} from './lib/timezones';
export { ProfileViewPage } from './pages/ProfileViewPage';
export { PublicProfilePage } from './pages/PublicProfilePage';

/** The route's `lazy`: the photo cropper and the dialogs load with the page that uses them. */
export const lazyEditProfilePage = async () => ({
  Component: (await import('./pages/EditProfilePage')).EditProfilePage,
});
