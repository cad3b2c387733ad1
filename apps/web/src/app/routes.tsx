import { Navigate, type RouteObject } from 'react-router';
import { AccountsPage } from '../features/accounts/pages/AccountsPage';
import { AdminPage } from '../features/admin/pages/AdminPage';
import { ForgotPasswordPage } from '../features/auth/pages/ForgotPasswordPage';
import { LoginPage } from '../features/auth/pages/LoginPage';
import { RecoverMessagePage } from '../features/auth/pages/RecoverMessagePage';
import { ResetPasswordPage } from '../features/auth/pages/ResetPasswordPage';
import { SignupPage } from '../features/auth/pages/SignupPage';
import { SocialCallbackPage } from '../features/auth/pages/SocialCallbackPage';
import { DigestDetailPage } from '../features/dashboard/pages/DigestDetailPage';
import { DigestsPage } from '../features/dashboard/pages/DigestsPage';
import { MenuPage } from '../features/menu/pages/MenuPage';
import { NewslettersPage } from '../features/newsletters/pages/NewslettersPage';
import { CreateDigestPage } from '../features/onboarding/pages/CreateDigestPage';
import { ProfileViewPage } from '../features/profile/pages/ProfileViewPage';
import { PublicProfilePage } from '../features/profile/pages/PublicProfilePage';
import { SharedDigestPage } from '../features/share/pages/SharedDigestPage';
import { PlaceholderPage } from '../features/static/pages/PlaceholderPage';
import { UnsubscribePage } from '../features/subscriptions/pages/UnsubscribePage';
import { CHANGELOG_URL, SUPPORT_MAILTO } from '../lib/config';
import { paths } from '../lib/paths';
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

/** Signed-out routes (SPEC §2); a signed-in visitor is redirected by SignedOutOnly. */
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
        { path: paths.menu, element: <MenuPage /> },
        {
          path: paths.changelog,
          element: (
            <PlaceholderPage title="Changelog">
              <p>
                What is new in Digest:{' '}
                <a href={CHANGELOG_URL} target="_blank" rel="noopener noreferrer">
                  read the changelog
                </a>
                .
              </p>
            </PlaceholderPage>
          ),
        },
        {
          path: paths.support,
          element: (
            <PlaceholderPage title="Support page">
              <p>
                Need help? <a href={SUPPORT_MAILTO}>Write to us</a>.
              </p>
            </PlaceholderPage>
          ),
        },
        {
          element: <SettingsLayout />,
          children: [
            {
              path: paths.editProfile,
              // The cropper and the dialogs load with the page that uses them.
              lazy: async () => ({
                Component: (await import('../features/profile/pages/EditProfilePage')).EditProfilePage,
              }),
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
      // The builder's header (progress, Complete, the schedule popup) loads with the builder too.
      lazy: async () => ({
        Component: (await import('../features/builder/pages/BuilderLayout')).BuilderLayout,
      }),
      children: [
        {
          path: paths.digestCreator,
          // The builder's drag and drop and the e-mail's block components load with the builder only.
          lazy: async () => ({
            Component: (await import('../features/builder/pages/DigestCreatorPage')).DigestCreatorPage,
          }),
        },
      ],
    },
  ],
};

/**
 * Pages anyone may open, signed in or not, without waiting for the session: the public page of a digest
 * (SPEC §2 "Public routes"), the unsubscribe confirmation of the e-mail link, a public profile.
 */
const publicRoutes: RouteObject = {
  element: <PublicLayout />,
  errorElement: <RouteError />,
  children: [
    { path: paths.sharedDigest, element: <SharedDigestPage /> },
    { path: paths.sharedDigestBuild, element: <SharedDigestPage /> },
    { path: paths.unsubscribe, element: <UnsubscribePage /> },
    { path: paths.publicProfile, element: <PublicProfilePage /> },
  ],
};

/** The route table (SPEC §2), in one place. Matching is case-insensitive: `/login` opens `/logIn`. */
export const routes: RouteObject[] = [
  publicRoutes,
  {
    element: <SessionRoot />,
    errorElement: <RouteError />,
    children: [
      eitherStateRoutes,
      signedOutRoutes,
      signedInRoutes,
      // SPEC §2: /admin waits for a token, whichever state the visitor is in.
      { path: paths.admin, element: <AdminPage /> },
      { path: '*', element: <FallbackRedirect /> },
    ],
  },
];
