import { Resolver } from 'node:dns/promises';
import type { NewsletterAuthentication } from '@digest/contracts';
import type { DNSResolver } from 'mailauth';
// The checks one by one rather than mailauth's `authenticate`, whose BIMI part loads an HTTP client
// (undici 8) that needs Node 22; SPF, DKIM and DMARC run on Node 20 (platform/mailer.test.ts verifies too).
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { evaluateDmarc } from 'mailauth/lib/dmarc/index.js';
import { spf } from 'mailauth/lib/spf/index.js';

export type { DNSResolver };

/** How long one DNS query of a check may take: a slow zone must not hold the SMTP session open. */
const DNS_TIMEOUT_MS = 3_000;

/** Real DNS with a short timeout and one retry, as the SPF, DKIM and DMARC checks need it. */
export function systemDnsResolver(): DNSResolver {
  const resolver = new Resolver({ timeout: DNS_TIMEOUT_MS, tries: 2 });
  return (name, rrtype) => resolver.resolve(name, rrtype) as Promise<string[][] | string[]>;
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
    const dkimResult = await dkimVerify(raw, { resolver: options.resolver, sender: peer.envelopeFrom });
    const spfResult = await spf({
      ip: peer.ip,
      // A bounce (empty MAIL FROM) is checked as postmaster@ its HELO name (RFC 7208 §2.4).
      sender: peer.envelopeFrom || `postmaster@${peer.helo}`,
      helo: peer.helo,
      mta: options.mta,
      resolver: options.resolver,
    });
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
