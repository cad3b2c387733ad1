import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * The only format: v2 binds each value to its row (additional authenticated data). v1 values (not bound)
 * were never written outside development, so they are refused like any unknown format.
 */
const VERSION = 'v2';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Provider tokens at rest: AES-256-GCM, so a stored value can be neither read nor altered without the key,
 * nor moved to another row: the row's identity (`tokenContext`) is authenticated with it.
 */
export interface TokenCipher {
  /** `v2.<iv>.<tag>.<ciphertext>`, each part base64url; a fresh random IV every time. */
  encrypt(plaintext: string, context: string): string;
  /**
   * Throws when the value was altered, is in an unknown format, was sealed with another key, or was sealed
   * for another context (copied from another row).
   */
  decrypt(sealed: string, context: string): string;
}

/** What a connected account's tokens are bound to: the owner and the account at its provider. */
export const tokenContext = (row: { userId: string; provider: string; providerAccountId: string }) =>
  `${row.userId}:${row.provider}:${row.providerAccountId}`;

export class TokenDecryptionError extends Error {
  override name = 'TokenDecryptionError';
}

/** `key`: 32 bytes, from `deriveKey(appSecret, 'provider-tokens')`. */
export function createTokenCipher(key: Uint8Array): TokenCipher {
  if (key.length !== 32) throw new Error('a token cipher needs a 32-byte key');
  return {
    encrypt(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url'));
      return [VERSION, ...parts].join('.');
    },
    decrypt(sealed, context) {
      const [version, iv, tag, ciphertext, ...rest] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || ciphertext === undefined || rest.length > 0) {
        throw new TokenDecryptionError('not a sealed token');
      }
      const ivBytes = Buffer.from(iv, 'base64url');
      const tagBytes = Buffer.from(tag, 'base64url');
      if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) {
        throw new TokenDecryptionError('not a sealed token');
      }
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, ivBytes, { authTagLength: TAG_BYTES });
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(tagBytes);
        return Buffer.concat([
          decipher.update(Buffer.from(ciphertext, 'base64url')),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        throw new TokenDecryptionError(
          'the sealed token was altered, sealed with another key, or belongs to another row',
        );
      }
    },
  };
}
