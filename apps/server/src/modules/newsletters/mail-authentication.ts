import { Resolver } from 'node:dns/promises';
import type { NewsletterAuthentication } from '@digest/contracts';
import type { DNSResolver } from 'mailauth';
// The checks one by one rather than mailauth's `authenticate`, whose BIMI part loads an HTTP client
// (undici 8) that needs Node 22; SPF, DKIM and DMARC run on Node 20 (platform/mailer.test.ts verifies too).
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { evaluateDmarc } from 'mailauth/lib/dmarc/index.js';
import { spf } from 'mailauth/lib/spf/index.js';
import { type Clock, systemClock } from '#server/platform/clock';

export type { DNSResolver };

/** How long one DNS query of a check may take: a slow zone must not hold the SMTP session open. */
const DNS_TIMEOUT_MS = 3_000;

/** Real DNS with a short timeout and one retry, as the SPF, DKIM and DMARC checks need it. */
export function systemDnsResolver(): DNSResolver {
  const resolver = new Resolver({ timeout: DNS_TIMEOUT_MS, tries: 2 });
  return cachedDnsResolver(
    (name, rrtype) => resolver.resolve(name, rrtype) as Promise<string[][] | string[]>,
  );
}

/** How long an answer is reused. Short enough that a sender's new key or policy counts within minutes. */
export const DNS_CACHE_TTL_MS = 5 * 60_000;
/** How long "no such name / no such record" is reused: shorter, since a record may be about to appear. */
export const DNS_NEGATIVE_TTL_MS = 60_000;
/** Names kept at most; the oldest go first. */
export const DNS_CACHE_MAX_ENTRIES = 10_000;

/** The answers that say the record does not exist (as opposed to a timeout or an unreachable server). */
const NEGATIVE_CODES = new Set(['ENOTFOUND', 'ENODATA']);

/**
 * One lookup per name and type for a while, shared by every message under way: a newsletter platform sends
 * many messages from the same domains, and each message's SPF, DKIM and DMARC checks ask the same
 * questions. Queries in flight are shared too, so 50 sessions at once make one query, not 50 (measured in
 * bench/inbound.ts: a resolver that answers 20 concurrent queries at once took its 3 s timeout for 50).
 * Failures other than "does not exist" are not kept, so the next message asks again.
 */
export function cachedDnsResolver(
  resolve: DNSResolver,
  options: { clock?: Clock; ttlMs?: number; negativeTtlMs?: number; maxEntries?: number } = {},
): DNSResolver {
  const clock = options.clock ?? systemClock;
  const ttlMs = options.ttlMs ?? DNS_CACHE_TTL_MS;
  const negativeTtlMs = options.negativeTtlMs ?? DNS_NEGATIVE_TTL_MS;
  const maxEntries = options.maxEntries ?? DNS_CACHE_MAX_ENTRIES;
  const entries = new Map<string, { answer: ReturnType<DNSResolver>; expiresAt: number }>();
  return (name, rrtype) => {
    const key = `${rrtype} ${name.toLowerCase()}`;
    const now = clock.now().getTime();
    const cached = entries.get(key);
    // Each caller gets its own copy, so a check that changes what it got cannot change the next one's.
    if (cached && cached.expiresAt > now) return cached.answer.then((records) => structuredClone(records));
    entries.delete(key);
    const answer = resolve(name, rrtype);
    // Until it settles, the query is shared; then it is kept for its lifetime, or dropped.
    const entry = { answer, expiresAt: Number.POSITIVE_INFINITY };
    entries.set(key, entry);
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    answer.then(
      () => {
        entry.expiresAt = clock.now().getTime() + ttlMs;
      },
      (error: { code?: string }) => {
        if (error?.code && NEGATIVE_CODES.has(error.code))
          entry.expiresAt = clock.now().getTime() + negativeTtlMs;
        else if (entries.get(key) === entry) entries.delete(key);
      },
    );
    return answer.then((records) => structuredClone(records));
  };
}

export interface SmtpPeer {
  /** The connecting client's address, the EHLO name it gave, and MAIL FROM. */
  ip: string;
  helo: string;
  envelopeFrom: string;
}

const NONE = { result: 'none', domain: null };

/**
 * SPF (of the envelope sender and client address), DKIM (a passing signature's outcome, else the first
 * one's) and DMARC (From's domain aligned with either) for a raw message, in the contract's shape. A check that cannot run (the DNS is
 * unreachable, the message is malformed) is recorded as `temperror` rather than refusing the mail: the
 * results are shown to the user, not used to reject.
 */
export async function authenticateMessage(
  raw: Buffer,
  peer: SmtpPeer,
  options: { resolver: DNSResolver; mta: string },
): Promise<NewsletterAuthentication> {
  try {
    // Independent of each other, so their DNS round trips overlap; DMARC needs both.
    const [dkimResult, spfResult] = await Promise.all([
      dkimVerify(raw, { resolver: options.resolver, sender: peer.envelopeFrom }),
      spf({
        ip: peer.ip,
        // A bounce (empty MAIL FROM) is checked as postmaster@ its HELO name (RFC 7208 §2.4).
        sender: peer.envelopeFrom || `postmaster@${peer.helo}`,
        helo: peer.helo,
        mta: options.mta,
        resolver: options.resolver,
      }),
    ]);
    const passingDkim = (dkimResult.results ?? []).filter((row) => row.status?.result === 'pass');
    const dmarcResult = dkimResult.headerFrom
      ? (
          await evaluateDmarc({
            headerFrom: dkimResult.headerFrom,
            spfDomains: spfResult.status.result === 'pass' && spfResult.domain ? [spfResult.domain] : [],
            dkimDomains: passingDkim.map((row) => ({
              id: row.id,
              domain: row.signingDomain,
              aligned: row.status?.aligned,
              underSized: row.status?.underSized,
            })),
            resolver: options.resolver,
          } as Parameters<typeof evaluateDmarc>[0])
        ).response
      : false;
    const dkim = passingDkim[0] ?? dkimResult.results?.[0];
    return {
      spf: { result: String(spfResult.status?.result ?? 'none'), domain: spfResult.domain ?? null },
      dkim: dkim
        ? { result: String(dkim.status?.result ?? 'none'), domain: dkim.signingDomain ?? null }
        : NONE,
      dmarc: dmarcResult
        ? { result: String(dmarcResult.status?.result ?? 'none'), domain: dmarcResult.domain ?? null }
        : NONE,
    };
  } catch {
    const failed = { result: 'temperror', domain: null };
    return { spf: failed, dkim: failed, dmarc: failed };
  }
}
