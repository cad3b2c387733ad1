import { describe, expect, it } from 'vitest';
import { deriveKey } from '#server/platform/crypto';
import { createTokenCipher, TokenDecryptionError, tokenContext } from './token-cipher';

const cipher = createTokenCipher(deriveKey('a'.repeat(32), 'provider-tokens'));
const TOKEN = 'ya29.a0AfB_byC-secret-access-token';
const ROW = tokenContext({ userId: 'user-ada', provider: 'GOOGLE', providerAccountId: '1001' });

/** Flips one character of a base64url part, keeping it valid base64url. */
function tamper(sealed: string, partIndex: number) {
  const parts = sealed.split('.');
  const part = parts[partIndex] ?? '';
  parts[partIndex] = (part[0] === 'A' ? 'B' : 'A') + part.slice(1);
  return parts.join('.');
}

describe('provider token cipher', () => {
  it('seals as v2.<iv>.<tag>.<ciphertext> without the plaintext, and opens it again', () => {
    const sealed = cipher.encrypt(TOKEN, ROW);
    expect(sealed).toMatch(/^v2\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
    expect(sealed).not.toContain(TOKEN);
    expect(Buffer.from(sealed.split('.')[3] ?? '', 'base64url').toString()).not.toContain('secret');
    expect(cipher.decrypt(sealed, ROW)).toBe(TOKEN);
  });

  it('uses a fresh IV every time: the same token never seals the same way twice', () => {
    expect(cipher.encrypt(TOKEN, ROW)).not.toBe(cipher.encrypt(TOKEN, ROW));
  });

  it.each([
    ['the IV', 1],
    ['the tag', 2],
    ['the ciphertext', 3],
  ])('refuses a value whose %s was altered', (_part, index) => {
    expect(() => cipher.decrypt(tamper(cipher.encrypt(TOKEN, ROW), index), ROW)).toThrow(
      TokenDecryptionError,
    );
  });

  it('refuses a value sealed with another key (another APP_SECRET or purpose)', () => {
    const other = createTokenCipher(deriveKey('a'.repeat(32), 'access-token'));
    expect(() => cipher.decrypt(other.encrypt(TOKEN, ROW), ROW)).toThrow(TokenDecryptionError);
  });

  it.each([
    ['another user', { userId: 'user-grace', provider: 'GOOGLE', providerAccountId: '1001' }],
    ['another provider', { userId: 'user-ada', provider: 'TWITTER', providerAccountId: '1001' }],
    ['another account', { userId: 'user-ada', provider: 'GOOGLE', providerAccountId: '1002' }],
  ])('refuses a value copied to the row of %s: it is bound to its own row', (_row, other) => {
    expect(() => cipher.decrypt(cipher.encrypt(TOKEN, ROW), tokenContext(other))).toThrow(
      TokenDecryptionError,
    );
  });

  it('refuses a v1 value (sealed without its row): the format is v2 only', () => {
    const v1 = cipher.encrypt(TOKEN, ROW).replace(/^v2\./, 'v1.');
    expect(() => cipher.decrypt(v1, ROW)).toThrow(TokenDecryptionError);
  });

  it.each(['', TOKEN, 'v2.a.b.c', 'v2.only.three', `${cipher.encrypt(TOKEN, ROW)}.extra`])(
    'refuses %j: not a sealed token',
    (value) => {
      expect(() => cipher.decrypt(value, ROW)).toThrow(TokenDecryptionError);
    },
  );
});
