import { describe, expect, it } from 'vitest';
import { usernameHint } from './username-change';

const user = { username: 'AdaL', newsletterEmail: 'adal@digest.example' };

describe('the Username hint says what a change does', () => {
  it('names the current newsletter address while the name is unchanged, or changes only in case', () => {
    const current = 'Letters and numbers only. Your newsletter address is adal@digest.example.';
    expect(usernameHint(user, 'AdaL')).toBe(current);
    expect(usernameHint(user, 'adal')).toBe(current);
    expect(usernameHint(user, ' ADAL ')).toBe(current);
  });

  it('names the new address, the new public page and the reservation of the old name once the new one is valid', () => {
    expect(usernameHint(user, 'AdaLovelace')).toBe(
      'Your newsletter address will change to adalovelace@digest.example, and your public page moves to ' +
        '/user/AdaLovelace. Nobody else can take @AdaL for 30 days.',
    );
  });

  it('says nothing of a change while the typed name is not a valid username', () => {
    const current = 'Letters and numbers only. Your newsletter address is adal@digest.example.';
    expect(usernameHint(user, 'ada lovelace')).toBe(current);
    expect(usernameHint(user, '')).toBe(current);
  });
});
