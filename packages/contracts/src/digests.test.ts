import { describe, expect, it } from 'vitest';
import {
  DIGEST_MESSAGES,
  defaultDigestName,
  digestCreateSchema,
  digestPatchSchema,
  draftCreateSchema,
  formatCount,
  sharedMessage,
  subscriberListSchema,
  subscribersPutSchema,
} from './digests';

const messages = (
  schema: { safeParse(value: unknown): { error?: { issues: { message: string }[] } } },
  value: unknown,
) => schema.safeParse(value).error?.issues.map((issue) => issue.message) ?? [];

const THREE = [{ type: 'DATE' }, { type: 'HACKER_NEWS' }, { type: 'PRODUCT_HUNT' }];

describe('a new digest', () => {
  it('takes the docs/product.md §3 defaults: name empty, 07:00, active, daily, weekDay 1, monthDay 1, no subscribers', () => {
    expect(digestCreateSchema.parse({ sources: THREE })).toMatchObject({
      name: '',
      time: '07:00',
      active: true,
      scheduleType: 'daily',
      weekDay: 1,
      monthDay: 1,
      issueRetentionMonths: 12,
      subscribers: [],
    });
  });

  it('keeps its issues 1, 3, 6, 12 or 24 months, nothing else', () => {
    for (const months of [1, 3, 6, 12, 24]) {
      expect(
        digestCreateSchema.parse({ sources: THREE, issueRetentionMonths: months }).issueRetentionMonths,
      ).toBe(months);
      expect(digestPatchSchema.parse({ issueRetentionMonths: months })).toEqual({
        issueRetentionMonths: months,
      });
    }
    for (const months of [0, 2, 12.5, 36, '12', null]) {
      expect(messages(digestCreateSchema, { sources: THREE, issueRetentionMonths: months })).toEqual([
        DIGEST_MESSAGES.issueRetention,
      ]);
      expect(messages(digestPatchSchema, { issueRetentionMonths: months })).toEqual([
        DIGEST_MESSAGES.issueRetention,
      ]);
    }
  });

  it('needs 3 to 20 sources', () => {
    expect(messages(digestCreateSchema, { sources: THREE.slice(0, 2) })).toEqual([
      DIGEST_MESSAGES.minSources,
    ]);
    expect(messages(digestCreateSchema, { sources: Array(21).fill(THREE[0]) })).toEqual([
      DIGEST_MESSAGES.maxSources,
    ]);
    expect(messages(digestCreateSchema, {})).toHaveLength(1);
  });

  it.each(['00:00', '07:05', '23:59'])('accepts the time %s', (time) => {
    expect(digestCreateSchema.parse({ sources: THREE, time }).time).toBe(time);
  });

  it.each(['7:00', '24:00', '12:60', '07:00:00', '', 'noon'])('refuses the time %j', (time) => {
    expect(messages(digestCreateSchema, { sources: THREE, time })).toEqual([DIGEST_MESSAGES.time]);
  });

  it('weekday 0–6 and month day 1–31', () => {
    expect(messages(digestCreateSchema, { sources: THREE, weekDay: 7 })).toEqual([DIGEST_MESSAGES.weekDay]);
    expect(messages(digestCreateSchema, { sources: THREE, monthDay: 0 })).toEqual([DIGEST_MESSAGES.monthDay]);
    expect(messages(digestCreateSchema, { sources: THREE, monthDay: 32 })).toEqual([
      DIGEST_MESSAGES.monthDay,
    ]);
    expect(digestCreateSchema.parse({ sources: THREE, weekDay: 0, monthDay: 31 })).toMatchObject({
      weekDay: 0,
      monthDay: 31,
    });
  });

  it('collapses white space and control characters in the name', () => {
    expect(digestCreateSchema.parse({ sources: THREE, name: ' My\n\tdigest ' }).name).toBe('My digest');
  });
});

describe('friends’ e-mails', () => {
  it('are trimmed, lower-cased and unique', () => {
    expect(subscriberListSchema.parse([' Ann@Example.com ', 'ann@example.com', 'bob@example.com'])).toEqual([
      'ann@example.com',
      'bob@example.com',
    ]);
  });

  it("refuse a bad one with '{email} should be a valid email!' (the text as entered)", () => {
    expect(messages(subscribersPutSchema, { subscribers: ['ok@example.com', ' Bob@ '] })).toEqual([
      'Bob@ should be a valid email!',
    ]);
  });
});

describe('changes', () => {
  it('a patch needs at least one field; { active: false } alone pauses', () => {
    expect(messages(digestPatchSchema, {})).toEqual([DIGEST_MESSAGES.nothingToChange]);
    expect(digestPatchSchema.parse({ active: false })).toEqual({ active: false });
  });

  it('a draft may have no sources', () => {
    expect(draftCreateSchema.parse({})).toEqual({ name: '', sources: [] });
  });
});

describe('wording', () => {
  it('names an unnamed digest after its owner, or User', () => {
    expect(defaultDigestName('Ada Lovelace')).toBe("Ada Lovelace's Digest");
    expect(defaultDigestName(null)).toBe("User's Digest");
  });

  it('counts friends in the share notice', () => {
    expect(sharedMessage(2)).toBe('Your Digest is shared with 2 friends.');
    expect(sharedMessage(1)).toBe('Your Digest is shared with 1 friend.');
  });

  it('shows counts above 1,000 as K and above 1,000,000 as M', () => {
    expect([999, 1000, 1500, 12_345, 999_949, 999_950, 1_000_001, 2_500_000].map(formatCount)).toEqual([
      '999',
      '1000',
      '1.5K',
      '12.3K',
      '999.9K',
      '1M',
      '1M',
      '2.5M',
    ]);
  });
});
