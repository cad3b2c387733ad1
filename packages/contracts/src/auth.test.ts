import { describe, expect, it } from 'vitest';
import {
  CONNECT_ACCOUNT_GENERIC_MESSAGE,
  connectAccountMessage,
  emailSchema,
  FLOW_ERROR_CODES,
  forgotPasswordSchema,
  INVALID_EMAIL_MESSAGE,
  isStrongPassword,
  LOGIN_PASSWORD_MESSAGE,
  loginPasswordSchema,
  loginSchema,
  newPasswordSchema,
  REQUIRED_MESSAGE,
  resetPasswordSchema,
  SIGNUP_PASSWORD_MESSAGE,
  SOCIAL_SIGN_IN_GENERIC_MESSAGE,
  signupSchema,
  socialSignInMessage,
} from './auth';

/** Messages of the issues a schema reports for a value, in order. */
function messages(
  schema: { safeParse(value: unknown): { error?: { issues: { message: string }[] } } },
  value: unknown,
) {
  return schema.safeParse(value).error?.issues.map((issue) => issue.message) ?? [];
}

describe('e-mail is required', () => {
  it('rejects an empty string with the required message only', () => {
    expect(messages(emailSchema, '')).toEqual([REQUIRED_MESSAGE]);
  });

  it('rejects white space only as empty', () => {
    expect(messages(emailSchema, '   ')).toEqual([REQUIRED_MESSAGE]);
  });

  it('rejects a missing value', () => {
    expect(messages(emailSchema, undefined)).toEqual([REQUIRED_MESSAGE]);
  });
});

describe('e-mail should be a valid email', () => {
  it.each(['alice@example.com', 'first.last+tag@mail.example.co.uk', 'bob@digest.localhost'])(
    'accepts %s',
    (value) => {
      expect(emailSchema.safeParse(value).success).toBe(true);
    },
  );

  it.each([
    ['no @', 'alice.example.com'],
    ['nothing before @', '@example.com'],
    ['nothing after @', 'alice@'],
    ['two @', 'alice@@example.com'],
    ['a space inside', 'ali ce@example.com'],
    ['a space in the domain', 'alice@exa mple.com'],
    ['no dot in the domain', 'alice@example'],
  ])('rejects %s', (_rule, value) => {
    expect(messages(emailSchema, value)).toEqual([INVALID_EMAIL_MESSAGE]);
  });

  it('ignores surrounding white space and returns the trimmed address', () => {
    expect(emailSchema.parse('  alice@example.com \n')).toBe('alice@example.com');
  });

  it('rejects an address longer than 254 characters', () => {
    expect(messages(emailSchema, `${'a'.repeat(250)}@example.com`)).toEqual([INVALID_EMAIL_MESSAGE]);
  });
});

describe('password has at least 8 characters, a letter, a number and a symbol', () => {
  it.each(['abcdef1!', 'Passw0rd!', 'zażółć1#', 'with space 1!'])('accepts %s', (value) => {
    expect(isStrongPassword(value)).toBe(true);
    expect(loginPasswordSchema.safeParse(value).success).toBe(true);
  });

  it('accepts a 64+ character password', () => {
    const long = `${'a'.repeat(60)}1234!${'b'.repeat(10)}`;
    expect(long.length).toBeGreaterThan(64);
    expect(loginPasswordSchema.safeParse(long).success).toBe(true);
  });

  it.each([
    ['too short', 'ab1!'],
    ['7 characters', 'abcde1!'],
    ['no symbol', 'abcdefg1'],
    ['no number', 'abcdefg!'],
    ['no letter', '1234567!'],
    ['white space is not a symbol', 'abcdef1 '],
  ])('rejects a password with %s', (_rule, value) => {
    expect(isStrongPassword(value)).toBe(false);
    expect(messages(loginPasswordSchema, value)).toEqual([LOGIN_PASSWORD_MESSAGE]);
  });

  it('reports an empty password as required, not as weak', () => {
    expect(messages(loginPasswordSchema, '')).toEqual([REQUIRED_MESSAGE]);
  });

  it('uses the sign-up wording for new passwords', () => {
    expect(messages(newPasswordSchema, 'abcdefg1')).toEqual([SIGNUP_PASSWORD_MESSAGE]);
  });
});

describe('login needs an e-mail and a password', () => {
  it('accepts valid credentials', () => {
    expect(loginSchema.parse({ email: ' alice@example.com', password: 'Passw0rd!' })).toEqual({
      email: 'alice@example.com',
      password: 'Passw0rd!',
    });
  });

  it('reports each field by its path', () => {
    const result = loginSchema.safeParse({ email: 'nope', password: '' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['email', INVALID_EMAIL_MESSAGE],
      ['password', REQUIRED_MESSAGE],
    ]);
  });

  it('does not trim the password', () => {
    expect(loginSchema.parse({ email: 'a@example.com', password: ' Passw0rd! ' }).password).toBe(
      ' Passw0rd! ',
    );
  });
});

describe('sign-up needs accepted terms', () => {
  it('accepts confirmed terms', () => {
    expect(
      signupSchema.safeParse({ email: 'a@example.com', password: 'Passw0rd!', confirmed: true }).success,
    ).toBe(true);
  });

  it('rejects unchecked terms with the required message', () => {
    const result = signupSchema.safeParse({
      email: 'a@example.com',
      password: 'Passw0rd!',
      confirmed: false,
    });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([REQUIRED_MESSAGE]);
  });
});

describe('forgot and reset password', () => {
  it('forgot password needs a valid e-mail', () => {
    expect(messages(forgotPasswordSchema, { email: '' })).toEqual([REQUIRED_MESSAGE]);
    expect(forgotPasswordSchema.safeParse({ email: 'a@example.com' }).success).toBe(true);
  });

  it('reset password needs a strong password and a recovery token', () => {
    expect(messages(resetPasswordSchema, { password: 'weakpass', recoveryToken: 't' })).toEqual([
      SIGNUP_PASSWORD_MESSAGE,
    ]);
    expect(messages(resetPasswordSchema, { password: 'Passw0rd!', recoveryToken: '' })).toEqual([
      REQUIRED_MESSAGE,
    ]);
  });
});

describe('flow error texts come from codes, never from the address', () => {
  it('a known code gets its own text for the provider', () => {
    expect(socialSignInMessage('cancelled', 'Google')).toBe('Google sign-in was cancelled.');
    expect(connectAccountMessage('missing_scope', 'Google')).toBe(
      'Google did not give access to your calendar. Connect again and allow it.',
    );
    for (const code of FLOW_ERROR_CODES) {
      expect(socialSignInMessage(code, 'Google')).not.toBe(SOCIAL_SIGN_IN_GENERIC_MESSAGE);
      expect(connectAccountMessage(code, 'Stripe')).not.toBe(CONNECT_ACCOUNT_GENERIC_MESSAGE);
    }
  });

  it('any other value, a hostile text or a name of Object.prototype included, gets the generic text', () => {
    for (const value of [
      'Your account is locked. Call +1 555 0100',
      'toString',
      '__proto__',
      '',
      null,
      undefined,
    ]) {
      expect(socialSignInMessage(value, 'Google')).toBe(SOCIAL_SIGN_IN_GENERIC_MESSAGE);
      expect(connectAccountMessage(value, 'Google')).toBe(CONNECT_ACCOUNT_GENERIC_MESSAGE);
    }
  });
});
