import { Navigate, type RouteObject } from 'react-router';
import { LoginPage } from '../features/auth/pages/LoginPage';
import { SignedOutLayout } from './layouts/SignedOutLayout';
import { paths } from './paths';
import { RouteError } from './RouteError';

/**
 * The route table (SPEC §2), in one place. Matching is case-insensitive: `/login` opens `/logIn`.
 * Signed-in and public routes join here once sessions exist.
 */
export const signedOutRoutes: RouteObject[] = [
  {
    element: <SignedOutLayout />,
    errorElement: <RouteError />,
    children: [
      { path: paths.logIn, element: <LoginPage /> },
      { path: '*', element: <Navigate to={paths.login} replace /> },
    ],
  },
];

export const routes: RouteObject[] = signedOutRoutes;
