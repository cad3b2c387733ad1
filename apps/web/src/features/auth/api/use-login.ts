import { useMutation } from '@tanstack/react-query';
import { errorMessage } from '../../../app/api-client';
import { notifyError } from '../../../app/notify';
import { signInWithEmail } from './auth-api';

/** E-mail sign-in. Failures show the server's message as an error toast (SPEC §8). */
export function useLogin() {
  return useMutation({
    mutationKey: ['auth', 'signin', 'email'],
    mutationFn: signInWithEmail,
    onError: (error) => notifyError(errorMessage(error)),
    // Storing the session and leaving the page come with the session issue.
  });
}
