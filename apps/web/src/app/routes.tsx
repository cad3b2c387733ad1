import type { ReactElement } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import {
  ForgotPasswordPage,
  LoginPage,
  RecoverMessagePage,
  ResetPasswordPage,
  SignupPage,
  SocialCallbackPage,
  VerifyEmailPage,
} from '#web/features/auth';
import { paths } from '#web/lib/paths';
import { FallbackRedirect, RequireForgetPasswordEmail, SessionRoot, SignedOutOnly } from './guards';
import { SignedOutLayout } from './layouts/SignedOutLayout';
import type * as Pages from './pages';
import { RouteError } from './RouteError';

/** A route's `lazy` that renders a page of the pages chunk (./pages), which every such route shares. */
function fromPages(render: (pages: typeof Pages) => ReactElement): RouteObject['lazy'] {
  return async () => ({ element: render(await import('./pages')) });
}

/**
 * A route's `lazy` from the pages chunk that loads a chunk of its own (the builder, the profile editor):
 * through ./pages, so that the entry imports no feature but auth (docs/ARCHITECTURE.md "Web build").
 */
function viaPages<Route>(pick: (pages: typeof Pages) => () => Promise<Route>): () => Promise<Route> {
  return async () => pick(await import('./pages'))();
}

/** Signed-out routes (docs/product.md §2); a signed-in visitor is redirected by SignedOutOnly. */
const signedOutRoutes: RouteObject = {
  element: <SignedOutOnly />,
  children: [
    { path: paths.signup, element: <SignupPage /> },
    { path: paths.logIn, element: <LoginPage /> },
    { path: paths.forgetPassword, element: <ForgotPasswordPage /> },
    {
      element: <RequireForgetPasswordEmail />,
      children: [{ path: paths.recoverMessage, element: <RecoverMessagePage /> }],
    },
  ],
};

/**
 * Pages that work in either state: the reset link may be opened in a browser that is signed in, and the
 * social callback turns a ticket into a session.
 */
const eitherStateRoutes: RouteObject = {
  element: <SignedOutLayout />,
  children: [
    { path: paths.resetPassword, element: <ResetPasswordPage /> },
    { path: paths.socialCallback, element: <SocialCallbackPage /> },
    { path: paths.verifyEmail, element: <VerifyEmailPage /> },
  ],
};

const signedInRoutes: RouteObject = {
  lazy: fromPages((p) => <p.SignedInOnly />),
  children: [
    {
      lazy: fromPages((p) => <p.AppLayout />),
      children: [
        { index: true, element: <Navigate to={paths.digests} replace /> },
        { path: paths.digests, lazy: fromPages((p) => <p.DigestsPage />) },
        { path: paths.digestDetail, lazy: fromPages((p) => <p.DigestDetailPage />) },
        { path: paths.newsletters, lazy: fromPages((p) => <p.NewslettersPage />) },
        { path: paths.newsletterMessage, lazy: fromPages((p) => <p.NewsletterReaderPage />) },
        { path: paths.menu, lazy: fromPages((p) => <p.MenuPage />) },
        { path: paths.support, lazy: fromPages((p) => <p.SupportPage />) },
        {
          lazy: fromPages((p) => <p.SettingsLayout />),
          children: [
            {
              path: paths.editProfile,
              lazy: viaPages((p) => p.lazyEditProfilePage),
            },
            { path: paths.accounts, lazy: fromPages((p) => <p.AccountsPage />) },
            { path: `${paths.profileView}/*`, lazy: fromPages((p) => <p.ProfileViewPage />) },
            { path: `${paths.user}/*`, lazy: fromPages((p) => <p.ProfileViewPage />) },
          ],
        },
      ],
    },
    {
      lazy: fromPages((p) => <p.WelcomeLayout />),
      children: [{ path: paths.createDigest, lazy: fromPages((p) => <p.CreateDigestPage />) }],
    },
    {
      // The builder and its header load only when it is opened.
      lazy: viaPages((p) => p.lazyBuilderLayout),
      children: [{ path: paths.digestCreator, lazy: viaPages((p) => p.lazyDigestCreatorPage) }],
    },
  ],
};

/**
 * Pages anyone may open, signed in or not, without waiting for the session: the public page of a digest
 * (docs/product.md §2 "Public routes"), the unsubscribe confirmation of the e-mail link, a public profile,
 * and the Terms of Service, Privacy Policy and changelog (sign-up and every e-mail link to them).
 */
const publicRoutes: RouteObject = {
  lazy: fromPages((p) => <p.PublicLayout />),
  errorElement: <RouteError />,
  children: [
    { path: paths.sharedDigest, lazy: fromPages((p) => <p.SharedDigestPage />) },
    { path: paths.sharedDigestBuild, lazy: fromPages((p) => <p.SharedDigestPage />) },
    { path: paths.unsubscribe, lazy: fromPages((p) => <p.UnsubscribePage />) },
    { path: paths.invitation, lazy: fromPages((p) => <p.InvitationPage />) },
    { path: paths.publicProfile, lazy: fromPages((p) => <p.PublicProfilePage />) },
    { path: paths.terms, lazy: fromPages((p) => <p.DocumentPage page="terms" />) },
    { path: paths.privacy, lazy: fromPages((p) => <p.DocumentPage page="privacy" />) },
    { path: paths.changelog, lazy: fromPages((p) => <p.DocumentPage page="changelog" />) },
  ],
};

/** The route table (docs/product.md §2), in one place. Matching is case-insensitive: `/login` opens `/logIn`. */
export const routes: RouteObject[] = [
  publicRoutes,
  {
    element: <SessionRoot />,
    errorElement: <RouteError />,
    children: [
      eitherStateRoutes,
      signedOutRoutes,
      signedInRoutes,
      // docs/product.md §2: /admin waits for a token, whichever state the visitor is in.
      { path: paths.admin, lazy: fromPages((p) => <p.AdminPage />) },
      { path: '*', element: <FallbackRedirect /> },
    ],
  },
];
