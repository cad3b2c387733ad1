import {
  type DigestSummary,
  digestListResponseSchema,
  digestResponseSchema,
  sourceSchema,
} from '@digest/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compiledSerializerCompiler } from './compiled-serializer';

const route = (schema: z.core.$ZodType) => ({ schema, method: 'GET', url: '/x', httpStatus: '200' });

const summary: DigestSummary = {
  digestId: '0b6f3c1e-2f55-4a8e-9d3c-6a1f0e2b7c41',
  name: 'Morning "news" \u2028 ünïcode',
  active: true,
  scheduleType: 'daily',
  time: '07:00',
  weekDay: 1,
  monthDay: 1,
  issueRetentionMonths: 12,
  sendOnlyWhenNew: false,
  minSourcesToSend: 0,
  latestBuildNumber: null,
  visibility: 'public',
  shareUrl: 'http://app.test/digests/share/abc',
  nextRunAt: null,
  pausedAt: null,
  timeZone: 'UTC',
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  sourceTypes: ['HACKER_NEWS', 'DATE'],
  subscriberCount: 2,
  failingSources: 0,
};

describe('compiled response serialisation', () => {
  it('writes the same text as zod for the digests list, leaving out what the schema does not name', () => {
    const serialize = compiledSerializerCompiler({ check: false })(route(digestListResponseSchema));
    const answer = { digests: [{ ...summary, userId: 'secret', sources: [{ type: 'DATE' }] }] };
    expect(serialize(answer)).toBe(
      JSON.stringify(z.encode(digestListResponseSchema, { digests: [summary] })),
    );
    expect(serialize(answer)).not.toContain('secret');
  });

  it('writes a digest with its sources (a union of kinds) as zod does', () => {
    const serialize = compiledSerializerCompiler({ check: true })(route(digestResponseSchema));
    const { sourceTypes: _types, subscriberCount: _count, ...fields } = summary;
    const digest = {
      ...fields,
      subscribers: ['friend@example.com'],
      // Stored sources with every default filled in, one with a key its kind does not have.
      sources: [
        sourceSchema.parse({ type: 'DATE' }),
        { ...sourceSchema.parse({ type: 'HACKER_NEWS' }), stray: 'left out' },
        // Conditions, the optional settings last in a kind's shape.
        sourceSchema.parse({ type: 'HACKER_NEWS', conditions: { minPoints: 100, minNewItems: 2 } }),
        sourceSchema.parse({
          type: 'RSS',
          feedLink: 'https://example.com/feed.xml',
          pageUrl: 'https://example.com/',
          conditions: { minNewItems: 3 },
        }),
        sourceSchema.parse({
          type: 'WEATHER',
          latitude: 1,
          longitude: 2,
          locationName: 'Here',
          conditions: { rainAtLeast: 60, temperatureOutside: { min: -5, max: 30 } },
        }),
      ],
      builds: [{ buildNumber: 1, createdAt: '2026-11-02T00:00:00.000Z', htmlLink: '/api/x' }],
      lastRun: null,
    };
    expect(serialize({ digest })).toBe(JSON.stringify(z.encode(digestResponseSchema, { digest })));
  });

  it('with check, refuses an answer that does not match its schema, as the zod serialiser did', () => {
    const serialize = compiledSerializerCompiler({ check: true })(route(z.object({ count: z.number() })));
    expect(serialize({ count: 3 })).toBe('{"count":3}');
    expect(() => serialize({ count: 'three' })).toThrow();
  });

  it('keeps the zod serialiser for a schema JSON Schema cannot express', () => {
    const schema = z.object({ at: z.date() });
    const serialize = compiledSerializerCompiler({ check: false })(route(schema));
    expect(serialize({ at: new Date(0) })).toBe('{"at":"1970-01-01T00:00:00.000Z"}');
  });
});
