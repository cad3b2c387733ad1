import { describe, expect, it } from 'vitest';
import type { Clock } from '#server/platform/clock';
import { cachedDnsResolver, type DNSResolver } from './mail-authentication';

/** A DNS that counts its queries and answers each after the test says so. */
function countingDns(answer: (name: string) => Promise<string[][]>) {
  const queries: string[] = [];
  const resolver: DNSResolver = (name, rrtype) => {
    queries.push(`${rrtype} ${name}`);
    return answer(name);
  };
  return { resolver, queries };
}

function testClock(start = Date.parse('2026-11-25T12:00:00Z')) {
  let now = start;
  const clock: Clock = { now: () => new Date(now) };
  return { clock, advance: (ms: number) => (now += ms) };
}

const notFound = (name: string) =>
  Promise.reject(Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' }));
const timedOut = (name: string) =>
  Promise.reject(Object.assign(new Error(`queryTxt ETIMEOUT ${name}`), { code: 'ETIMEOUT' }));

describe('the DNS cache of the SPF, DKIM and DMARC checks', () => {
  it('asks once for many messages at once and for the same name later, until the answer is 5 minutes old', async () => {
    const { clock, advance } = testClock();
    const dns = countingDns(async () => [['v=spf1 -all']]);
    const cached = cachedDnsResolver(dns.resolver, { clock });
    const answers = await Promise.all(Array.from({ length: 50 }, () => cached('letters.example', 'TXT')));
    expect(answers.every((records) => records[0]?.[0] === 'v=spf1 -all')).toBe(true);
    expect(await cached('LETTERS.example', 'TXT')).toEqual([['v=spf1 -all']]);
    expect(dns.queries).toEqual(['TXT letters.example']);

    await cached('letters.example', 'MX');
    expect(dns.queries).toHaveLength(2);
    advance(5 * 60_000 + 1);
    await cached('letters.example', 'TXT');
    expect(dns.queries).toHaveLength(3);
  });

  it('keeps "no such name" for a minute, and never a timeout', async () => {
    const { clock, advance } = testClock();
    const missing = countingDns(notFound);
    const cached = cachedDnsResolver(missing.resolver, { clock });
    await expect(cached('nobody.example', 'TXT')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await expect(cached('nobody.example', 'TXT')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    expect(missing.queries).toHaveLength(1);
    advance(60_001);
    await expect(cached('nobody.example', 'TXT')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    expect(missing.queries).toHaveLength(2);

    const slow = countingDns(timedOut);
    const again = cachedDnsResolver(slow.resolver, { clock });
    await expect(again('slow.example', 'TXT')).rejects.toMatchObject({ code: 'ETIMEOUT' });
    await expect(again('slow.example', 'TXT')).rejects.toMatchObject({ code: 'ETIMEOUT' });
    expect(slow.queries).toHaveLength(2);
  });

  it('gives each caller its own copy, and holds at most maxEntries names', async () => {
    const dns = countingDns(async (name) => [[`v=spf1 include:${name} -all`]]);
    const cached = cachedDnsResolver(dns.resolver, { maxEntries: 2 });
    const first = (await cached('a.example', 'TXT')) as string[][];
    first[0]?.splice(0, 1, 'changed by a caller');
    expect(await cached('a.example', 'TXT')).toEqual([['v=spf1 include:a.example -all']]);
    await cached('b.example', 'TXT');
    await cached('c.example', 'TXT');
    await cached('a.example', 'TXT');
    expect(dns.queries).toEqual(['TXT a.example', 'TXT b.example', 'TXT c.example', 'TXT a.example']);
  });
});
