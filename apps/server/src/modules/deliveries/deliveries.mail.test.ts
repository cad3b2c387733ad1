import { describe, expect, it } from 'vitest';
import { issueSubject, quotedInSubject, replyToOwner, SUBJECT_NAME_MAX_LENGTH } from './deliveries.mail';

describe('a name in a subject is quoted text inside fixed words', () => {
  it('starts with the product, quotes the name and keeps the issue number', () => {
    expect(issueSubject('URGENT: verify your bank account', 3)).toBe(
      'Digest “URGENT: verify your bank account”, issue 3',
    );
  });

  it('turns control and format characters into single spaces and caps the length', () => {
    expect(quotedInSubject('a\r\nBcc: x\u0000\u202e\u2028b\t c')).toBe('“a Bcc: x b c”');
    const long = quotedInSubject('é'.repeat(200));
    expect([...long]).toHaveLength(SUBJECT_NAME_MAX_LENGTH + 2);
    expect(long.endsWith('…”')).toBe(true);
  });
});

describe('Reply-To names the owner only when the owner’s address is verified', () => {
  it('gives the header for a verified owner and nothing otherwise', () => {
    expect(replyToOwner({ ownerEmail: 'ada@example.com', ownerConfirmed: true })).toEqual({
      'Reply-To': 'ada@example.com',
    });
    expect(replyToOwner({ ownerEmail: 'ada@example.com', ownerConfirmed: false })).toEqual({});
  });
});
