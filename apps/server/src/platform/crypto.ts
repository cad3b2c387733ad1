import { createHash, hkdfSync, randomBytes } from 'node:crypto';

/** A key for one purpose, derived from APP_SECRET: one secret, independent keys. */
export function deriveKey(secret: string, purpose: string): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', secret, 'digest', purpose, 32));
}

/** An unguessable opaque token (256 bits), URL-safe. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** How opaque tokens are stored: a leaked table holds no usable token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
