/** Signing up, in and out, and password recovery. */
export { useLogout } from './api/use-auth';
export { ForgotPasswordPage } from './pages/ForgotPasswordPage';
export { LoginPage } from './pages/LoginPage';
export { RecoverMessagePage } from './pages/RecoverMessagePage';
export { ResetPasswordPage } from './pages/ResetPasswordPage';
export { SignupPage } from './pages/SignupPage';
export { SocialCallbackPage } from './pages/SocialCallbackPage';
export { VerifyEmailPage } from './pages/VerifyEmailPage';
