/** Client-side paths (docs/product.md §2). Route matching is case-insensitive, so `/login` opens `/logIn`. */
export const paths = {
  home: '/',
  logIn: '/logIn',
  login: '/login',
  signup: '/signup',
  forgetPassword: '/forgetPassword',
  recoverMessage: '/recover-message',
  resetPassword: '/reset-password',
  verifyEmail: '/verify-email',
  socialCallback: '/auth/:provider/callback',
  digests: '/digests',
  newsletters: '/newsletters',
  newsletterMessage: '/newsletters/:messageId',
  createDigest: '/createDigest',
  digestCreator: '/digestCreator',
  menu: '/menu',
  editProfile: '/editProfile',
  accounts: '/accounts',
  profileView: '/profileView',
  user: '/user',
  changelog: '/changelog',
  terms: '/terms',
  privacy: '/privacy',
  support: '/support',
  admin: '/admin',
  digestDetail: '/digests/:digestId',
  sharedDigest: '/digests/share/:shareToken',
  sharedDigestBuild: '/digests/share/:shareToken/:buildNumber',
  publicProfile: '/user/:username',
  unsubscribe: '/unsubscribe/:token',
  invitation: '/invitations/:token',
} as const;

/**
 * docs/product.md §2 "Guided sequence": the query parameter naming the kinds to open in the builder. It is
 * kept from the sign-up and log-in pages through the onboarding to the builder.
 */
export const SOURCES_PARAM = 'sources';

/** `/digests/{digestId}` */
export function digestPath(digestId: string): string {
  return `${paths.digests}/${encodeURIComponent(digestId)}`;
}

/** `/newsletters/{messageId}`: the reader view of one received message. */
export function newsletterMessagePath(messageId: string): string {
  return `${paths.newsletters}/${encodeURIComponent(messageId)}`;
}

/** True when `pathname` is `path`, ignoring case and a trailing slash (routes match case-insensitively). */
export function isPath(pathname: string, path: string): boolean {
  return pathname.replace(/\/+$/, '').toLowerCase() === path.toLowerCase();
}

/**
 * The signed-out pages, whose code is in the entry chunk (app/routes.tsx). For every other path the server
 * preloads the pages chunk with index.html (vite.config.ts `pagesChunkPreloads`), so that chunk is
 * requested with the entry rather than after it has run.
 */
export const entryChunkPaths = [
  paths.logIn,
  paths.signup,
  paths.forgetPassword,
  paths.recoverMessage,
  paths.resetPassword,
  paths.verifyEmail,
  paths.socialCallback,
];
