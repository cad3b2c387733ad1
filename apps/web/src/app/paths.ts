/** Client-side paths (SPEC §2). Route matching is case-insensitive, so `/login` opens `/logIn`. */
export const paths = {
  logIn: '/logIn',
  login: '/login',
  signup: '/signup',
  forgetPassword: '/forgetPassword',
} as const;
