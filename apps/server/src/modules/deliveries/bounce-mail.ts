import { simpleParser } from 'mailparser';
import type { Database } from '#server/db/client';
import type { Clock } from '#server/platform/clock';
import { type BounceOutcome, recordDeliveryBounce } from './delivery-bounces';
import { recordBounce, unsubscribeAfterComplaint } from './suppressions.repository';

/** What a report sent back to a delivery's VERP address says, read from its machine-readable part. */
export interface BounceMailReport {
  kind: 'bounce' | 'complaint';
  /** A delivery that failed for good (RFC 3464 `Action: failed` or a 5.x.x status); a delay is not. */
  permanent: boolean;
  diagnostic: string | undefined;
}

/**
 * A report's field (RFC 3464, RFC 5965) on a line of its own: the last one, since the machine-readable
 * part follows the human one, which may say anything.
 */
function field(text: string, name: string): string | undefined {
  const matches = [...text.matchAll(new RegExp(`^${name}:[ \\t]*(.+)$`, 'gim'))];
  return matches.at(-1)?.[1]?.trim();
}

/**
 * The report in a message sent to a VERP address: a delivery status notification (RFC 3464) or an abuse
 * report (ARF, RFC 5965). Anything else that reaches the address (an auto-reply, a "thanks" from a friend,
 * spam) is no report: undefined, and it changes nothing.
 */
export async function readBounceMail(raw: Buffer): Promise<BounceMailReport | undefined> {
  const mail = await simpleParser(raw, { skipHtmlToText: true, skipImageLinks: true });
  const contentType = mail.headers.get('content-type');
  const reportType =
    typeof contentType === 'object' && contentType !== null && 'params' in contentType
      ? contentType.params['report-type']?.toLowerCase()
      : undefined;
  // mailparser puts a message/delivery-status part in the text and keeps message/feedback-report apart.
  const reportParts = mail.attachments
    .filter((part) => /^message\/(delivery-status|feedback-report)$/i.test(part.contentType))
    .map((part) => part.content.toString('utf8'));
  const text = [mail.text ?? '', ...reportParts].join('\n');
  if (reportType === 'feedback-report' && field(text, 'Feedback-Type')) {
    return {
      kind: 'complaint',
      permanent: true,
      diagnostic: `Feedback-Type: ${field(text, 'Feedback-Type')}`,
    };
  }
  if (reportType !== 'delivery-status') return undefined;
  const action = field(text, 'Action')?.toLowerCase();
  const status = /^([245])\.\d{1,3}\.\d{1,3}/.exec(field(text, 'Status') ?? '');
  if (!action && !status) return undefined;
  const permanent = action === 'failed' || status?.[1] === '5';
  const diagnostic = [status?.[0], field(text, 'Diagnostic-Code')].filter(Boolean).join(' ');
  return { kind: 'bounce', permanent, diagnostic: diagnostic || undefined };
}

/**
 * A message that came back to the VERP address of one delivery. A permanent bounce records it on the
 * delivery and, the first time, marks a friend's address bouncing for every owner (as a 5xx at send time
 * does); an abuse report unsubscribes that friend from that owner's digest. A delay, a report for an
 * unknown token and a report already recorded change nothing more.
 */
export async function receiveBounceMail(
  deps: { db: Database; clock: Clock },
  bounceToken: string,
  raw: Buffer,
): Promise<BounceOutcome | { outcome: 'not-a-report' | 'delayed' }> {
  const report = await readBounceMail(raw);
  if (!report) return { outcome: 'not-a-report' };
  if (!report.permanent) return { outcome: 'delayed' };
  const outcome = await recordDeliveryBounce(deps, {
    bounceToken,
    kind: report.kind,
    diagnostic: report.diagnostic,
  });
  if (outcome.outcome !== 'recorded' || outcome.delivery.subscriberId === null) return outcome;
  const now = deps.clock.now();
  if (report.kind === 'bounce') await recordBounce(deps.db, outcome.delivery.recipient, now);
  else await unsubscribeAfterComplaint(deps.db, outcome.delivery.subscriberId, now);
  return outcome;
}
