import { Navigate, type RouteObject } from 'react-router';
import { AccountsPage } from '#web/features/accounts';
import { AdminPage } from '#web/features/admin';
import {
  ForgotPasswordPage,
  LoginPage,
  RecoverMessagePage,
  ResetPasswordPage,
  SignupPage,
  SocialCallbackPage,
  VerifyEmailPage,
} from '#web/features/auth';
import { lazyBuilderLayout, lazyDigestCreatorPage } from '#web/features/builder';
import { DigestDetailPage, DigestsPage } from '#web/features/dashboard';
import { MenuPage } from '#web/features/menu';
import { NewsletterReaderPage, NewslettersPage } from '#web/features/newsletters';
import { CreateDigestPage } from '#web/features/onboarding';
import { lazyEditProfilePage, ProfileViewPage, PublicProfilePage } from '#web/features/profile';
import { SharedDigestPage } from '#web/features/share';
import { DocumentPage, SupportPage } from '#web/features/static';
import { InvitationPage, UnsubscribePage } from '#web/features/subscriptions';
import { paths } from '#web/lib/paths';
import {
  FallbackRedirect,
  RequireForgetPasswordEmail,
  SessionRoot,
  SignedInOnly,
  SignedOutOnly,
} from './guards';
import { AppLayout } from './layouts/AppLayout';
import { PublicLayout } from './layouts/PublicLayout';
import { SettingsLayout } from './layouts/SettingsLayout';
import { SignedOutLayout } from './layouts/SignedOutLayout';
import { WelcomeLayout } from './layouts/WelcomeLayout';
import { RouteError } from './RouteError';

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
  element: <SignedInOnly />,
  children: [
    {
      element: <AppLayout />,
      children: [
        { index: true, element: <Navigate to={paths.digests} replace /> },
        { path: paths.digests, element: <DigestsPage /> },
        { path: paths.digestDetail, element: <DigestDetailPage /> },
        { path: paths.newsletters, element: <NewslettersPage /> },
        { path: paths.newsletterMessage, element: <NewsletterReaderPage /> },
        { path: paths.menu, element: <MenuPage /> },
        { path: paths.support, element: <SupportPage /> },
        {
          element: <SettingsLayout />,
          children: [
            {
              path: paths.editProfile,
              lazy: lazyEditProfilePage,
            },
            { path: paths.accounts, element: <AccountsPage /> },
            { path: `${paths.profileView}/*`, element: <ProfileViewPage /> },
            { path: `${paths.user}/*`, element: <ProfileViewPage /> },
          ],
        },
      ],
    },
    { element: <WelcomeLayout />, children: [{ path: paths.createDigest, element: <CreateDigestPage /> }] },
    {
      // The builder and its header load only when it is opened.
      lazy: lazyBuilderLayout,
      children: [{ path: paths.digestCreator, lazy: lazyDigestCreatorPage }],
    },
  ],
};

/**
 * Pages anyone may open, signed in or not, without waiting for the session: the public page of a digest
 * (docs/product.md §2 "Public routes"), the unsubscribe confirmation of the e-mail link, a public profile,
 * and the Terms of Service, Privacy Policy and changelog (sign-up and every e-mail link to them).
 */
const publicRoutes: RouteObject = {
  element: <PublicLayout />,
  errorElement: <RouteError />,
  children: [
    { path: paths.sharedDigest, element: <SharedDigestPage /> },
    { path: paths.sharedDigestBuild, element: <SharedDigestPage /> },
    { path: paths.unsubscribe, element: <UnsubscribePage /> },
    { path: paths.invitation, element: <InvitationPage /> },
    { path: paths.publicProfile, element: <PublicProfilePage /> },
    { path: paths.terms, element: <DocumentPage page="terms" /> },
    { path: paths.privacy, element: <DocumentPage page="privacy" /> },
    { path: paths.changelog, element: <DocumentPage page="changelog" /> },
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
      { path: paths.admin, element: <AdminPage /> },
      { path: '*', element: <FallbackRedirect /> },
    ],
  },
];
