import { ActionEmail, type LegalLinks, renderEmail } from '@digest/email';
import { createElement } from 'react';
import { z } from 'zod';
import { defineJob, MAIL_ON_REQUEST_QUEUE } from '#server/platform/jobs/job-queue';
import type { Logger } from '#server/platform/logger';
import type { Mailer } from '#server/platform/mailer';
import { type AuthDeps, createPasswordReset, PASSWORD_RESET_TTL_MS } from './auth.usecases';

export const passwordResetPayload = z.object({ email: z.string() });

/**
 * The request only enqueues this job, so it answers in the same time whether or not the address
 * has an account; the job creates the token and sends the link.
 */
export const sendPasswordResetJob = defineJob({
  name: 'auth.send-password-reset',
  payload: passwordResetPayload,
  queue: MAIL_ON_REQUEST_QUEUE,
});

export type PasswordResetDeps = AuthDeps & {
  mailer: Mailer;
  logger: Logger;
  appUrl: string;
  legal: LegalLinks;
};

export async function sendPasswordReset(deps: PasswordResetDeps, { email }: { email: string }) {
  const reset = await createPasswordReset(deps, email);
  if (!reset) return;
  const link = `${deps.appUrl}/reset-password?recoveryToken=${encodeURIComponent(reset.recoveryToken)}`;
  const minutes = PASSWORD_RESET_TTL_MS / 60_000;
  const { html, text } = await renderEmail(
    createElement(ActionEmail, {
      title: 'Reset your Digest password',
      preview: 'A link to choose a new password',
      heading: 'Reset your password',
      paragraphs: [
        'Someone asked to reset the password of your Digest account. If it was you, choose a new password with the button below.',
        `The link works once, for ${minutes} minutes.`,
      ],
      action: { label: 'Choose a new password', href: link },
      footnote: 'If you did not ask for this, ignore this e-mail: your password stays as it is.',
      legal: deps.legal,
    }),
  );
  await deps.mailer.send({ to: reset.user.email, subject: 'Reset your Digest password', html, text });
  deps.logger.info({ userId: reset.user.userId }, 'password reset link sent');
}
