import { type LoginBody, tokenPairSchema } from '@digest/contracts';
import { z } from 'zod';
import { api } from '../../../app/api-client';
import { API_BASE } from '../../../app/config';

/** DESIGN §5: sign-in answers `{ token: { accessToken, refreshToken }, user }`. */
const authResponseSchema = z.object({
  token: tokenPairSchema,
  user: z.unknown(),
});
export type AuthResponse = z.output<typeof authResponseSchema>;

export function signInWithEmail(body: LoginBody): Promise<AuthResponse> {
  return api.post('/auth/signin/email', body, { schema: authResponseSchema });
}

export type SocialProvider = 'google' | 'twitter' | 'facebook';
export type SocialMode = 'signin' | 'signup';

/** Where the browser goes to start a social sign-in or sign-up (SPEC §7). */
export function socialAuthUrl(mode: SocialMode, provider: SocialProvider): string {
  return `${API_BASE}/auth/${mode}/${provider}`;
}
