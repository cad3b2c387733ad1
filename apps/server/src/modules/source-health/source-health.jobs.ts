import { HEALTH_ALERT_STREAK, type Source, sourceHealthKey, sourceKindOf } from '@digest/contracts';
import { ActionEmail, type LegalLinks, renderEmail } from '@digest/email';
import { createElement } from 'react';
import { z } from 'zod';
import type { Database } from '#server/db/client';
import { quotedInSubject } from '#server/modules/deliveries/deliveries.mail';
import { defineJob, MAIL_ON_REQUEST_QUEUE } from '#server/platform/jobs/job-queue';
import type { Logger } from '#server/platform/logger';
import type { Mailer } from '#server/platform/mailer';
import { fixOf, fixPath } from './source-health.presenter';
import { findAlert } from './source-health.repository';

/** One source of one digest reached HEALTH_ALERT_STREAK failed issues in a row: its owner is told once. */
export const sourceHealthAlertJob = defineJob({
  name: 'source-health.send-alert',
  payload: z.object({ digestId: z.uuid(), sourceKey: z.string().min(1) }),
  queue: MAIL_ON_REQUEST_QUEUE,
});

export interface AlertDeps {
  db: Database;
  mailer: Mailer;
  logger: Logger;
  appUrl: string;
  legal: LegalLinks;
}

/** The subject of the alert: fixed words around the quoted names the owner wrote. */
export const alertSubject = (title: string, digestName: string) =>
  `Digest ${quotedInSubject(digestName)}: a source keeps failing, ${quotedInSubject(title)}`;

/**
 * Mails the owner about a source that failed HEALTH_ALERT_STREAK issues in a row: which source, what the
 * provider said, and the fix with its link. Nothing when the source recovered (or went) before the job
 * ran, or while the owner's address is unverified (issues wait for it too).
 */
export async function sendSourceHealthAlert(
  deps: AlertDeps,
  { digestId, sourceKey }: { digestId: string; sourceKey: string },
) {
  const alert = await findAlert(deps.db, digestId, sourceKey);
  if (!alert?.record.alertedAt) return;
  const source = alert.sources.find((candidate: Source) => sourceHealthKey(candidate) === sourceKey);
  if (!source) return;
  if (!alert.ownerConfirmed) {
    deps.logger.info({ digestId }, 'source alert not sent: the owner has not verified the address');
    return;
  }
  const title = sourceKindOf(source.type).title(source);
  const fix = fixOf(source, alert.record);
  const subject = alertSubject(title, alert.digestName);
  const href = `${deps.appUrl}${fix ? fixPath(fix, digestId) : `/digests/${digestId}`}`;
  const { html, text } = await renderEmail(
    createElement(ActionEmail, {
      title: subject,
      preview: fix?.message ?? `${title} could not be read`,
      heading: `${title} keeps failing`,
      paragraphs: [
        `The source “${title}” of your Digest “${alert.digestName}” could not be read in the last ${HEALTH_ALERT_STREAK} issues.`,
        `The last answer: ${(alert.record.lastErrorDetail ?? 'unknown').replace(/\.?$/, '.')}`,
        ...(fix ? [fix.message] : []),
      ],
      action: { label: fix?.label ?? 'Open the digest', href },
      footnote: 'This is the only e-mail about this source until it works again.',
      legal: deps.legal,
    }),
  );
  await deps.mailer.send({ to: alert.ownerEmail, subject, html, text });
  deps.logger.info({ digestId }, 'source alert sent');
}
