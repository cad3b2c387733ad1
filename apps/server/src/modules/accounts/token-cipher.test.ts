import { describe, expect, it } from 'vitest';
import { deriveKey } from '../../platform/crypto';
import { createTokenCipher, TokenDecryptionError } from './token-cipher';

const cipher = createTokenCipher(deriveKey('a'.repeat(32), 'provider-tokens'));
const TOKEN = 'ya29.a0AfB_byC-secret-access-token';

/** Flips one character of a base64url part, keeping it valid base64url. */
function tamper(sealed: string, partIndex: number) {
  const parts = sealed.split('.');
  const part = parts[partIndex] ?? '';
  parts[partIndex] = (part[0] === 'A' ? 'B' : 'A') + part.slice(1);
  return parts.join('.');
}

describe('provider token cipher', () => {
  it('seals as v1.<iv>.<tag>.<ciphertext> without the plaintext, and opens it again', () => {
    const sealed = cipher.encrypt(TOKEN);
    expect(sealed).toMatch(/^v1\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
    expect(sealed).not.toContain(TOKEN);
    expect(Buffer.from(sealed.split('.')[3] ?? '', 'base64url').toString()).not.toContain('secret');
    expect(cipher.decrypt(sealed)).toBe(TOKEN);
  });

  it('uses a fresh IV every time: the same token never seals the same way twice', () => {
    expect(cipher.encrypt(TOKEN)).not.toBe(cipher.encrypt(TOKEN));
  });

  it.each([
    ['the IV', 1],
    ['the tag', 2],
    ['the ciphertext', 3],
  ])('refuses a value whose %s was altered', (_part, index) => {
    expect(() => cipher.decrypt(tamper(cipher.encrypt(TOKEN), index))).toThrow(TokenDecryptionError);
  });

  it('refuses a value sealed with another key (another APP_SECRET or purpose)', () => {
    const other = createTokenCipher(deriveKey('a'.repeat(32), 'access-token'));
    expect(() => cipher.decrypt(other.encrypt(TOKEN))).toThrow(TokenDecryptionError);
  });

  it.each(['', TOKEN, 'v2.a.b.c', 'v1.only.three', `${cipher.encrypt(TOKEN)}.extra`])(
    'refuses %j: not a sealed token',
    (value) => {
      expect(() => cipher.decrypt(value)).toThrow(TokenDecryptionError);
    },
  );
});
