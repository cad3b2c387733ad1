import type { Database } from '#server/db/client';
import type { Clock } from '#server/platform/clock';
import * as repository from './deliveries.repository';

/**
 * Bounces (DSN) and complaints (ARF) reach the envelope sender of the mail they are about,
 * `<local>+b-<token>@<domain>` (VERP, platform/mailer.ts), so the token names one delivery. The inbound
 * mail server reads the token from the address with `bounceTokenOf` and calls `recordDeliveryBounce`; the
 * delivery it answers says which subscriber (or owner) to mark bouncing or unsubscribed: that is the
 * subscribers module's rule, not this one's.
 */

export interface BounceReport {
  bounceToken: string;
  kind: 'bounce' | 'complaint';
  /** The receiver's reason as it came (a DSN's Status and Diagnostic-Code); kept short and on one line. */
  diagnostic?: string;
}

export type BounceOutcome =
  /** No delivery has this token (forged, mistyped, or its digest was deleted since). */
  | { outcome: 'unknown' }
  /** Recorded now: the caller acts on it (once). */
  | { outcome: 'recorded'; delivery: BouncedDelivery }
  /** A report was there already (the same one again, or a bounce after a complaint): nothing changed. */
  | { outcome: 'already-recorded'; delivery: BouncedDelivery };

export type BouncedDelivery = NonNullable<Awaited<ReturnType<typeof repository.findDeliveryByBounceToken>>>;

export const BOUNCE_DIAGNOSTIC_MAX_LENGTH = 500;

/** A mail server's text, from outside: one line, no control characters, bounded. */
function shortDiagnostic(text: string | undefined): string | null {
  const line = (text ?? '')
    .replace(/[\p{Cc}\p{Cf}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return line === '' ? null : line.slice(0, BOUNCE_DIAGNOSTIC_MAX_LENGTH);
}

/** Tokens are lower-case hex; anything else names no delivery and is not looked up. */
const TOKEN = /^[0-9a-f]{32}$/;

/**
 * Records a bounce or complaint on its delivery. Idempotent: the same report twice records it once
 * (`already-recorded` the second time), and a complaint after a bounce replaces it, never the reverse.
 */
export async function recordDeliveryBounce(
  deps: { db: Database; clock: Clock },
  report: BounceReport,
): Promise<BounceOutcome> {
  const token = report.bounceToken.toLowerCase();
  if (!TOKEN.test(token)) return { outcome: 'unknown' };
  const recorded = await repository.recordBounce(
    deps.db,
    token,
    { kind: report.kind, diagnostic: shortDiagnostic(report.diagnostic) },
    deps.clock.now(),
  );
  if (recorded) return { outcome: 'recorded', delivery: recorded };
  const delivery = await repository.findDeliveryByBounceToken(deps.db, token);
  return delivery ? { outcome: 'already-recorded', delivery } : { outcome: 'unknown' };
}
