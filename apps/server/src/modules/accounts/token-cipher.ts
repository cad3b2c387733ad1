import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** The only format written so far; the prefix lets a later key or algorithm sit beside it. */
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Provider tokens at rest: AES-256-GCM, so a stored value can be neither read nor altered without the key. */
export interface TokenCipher {
  /** `v1.<iv>.<tag>.<ciphertext>`, each part base64url; a fresh random IV every time. */
  encrypt(plaintext: string): string;
  /** Throws when the value was altered, is in an unknown format, or was sealed with another key. */
  decrypt(sealed: string): string;
}

export class TokenDecryptionError extends Error {
  override name = 'TokenDecryptionError';
}

/** `key`: 32 bytes, from `deriveKey(appSecret, 'provider-tokens')`. */
export function createTokenCipher(key: Uint8Array): TokenCipher {
  if (key.length !== 32) throw new Error('a token cipher needs a 32-byte key');
  return {
    encrypt(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url'));
      return [VERSION, ...parts].join('.');
    },
    decrypt(sealed) {
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
        decipher.setAuthTag(tagBytes);
        return Buffer.concat([
          decipher.update(Buffer.from(ciphertext, 'base64url')),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        throw new TokenDecryptionError('the sealed token was altered or sealed with another key');
      }
    },
  };
}
