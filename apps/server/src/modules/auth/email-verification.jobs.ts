import { EMAIL_VERIFICATION_TTL_HOURS } from '@digest/contracts';
import { ActionEmail, type LegalLinks, renderEmail } from '@digest/email';
import { createElement } from 'react';
import { z } from 'zod';
import type { Database } from '#server/db/client';
import * as users from '#server/modules/users/users.repository';
import type { Clock } from '#server/platform/clock';
import { hashToken, randomToken } from '#server/platform/crypto';
import { defineJob, MAIL_ON_REQUEST_QUEUE } from '#server/platform/jobs/job-queue';
import type { Logger } from '#server/platform/logger';
import type { Mailer } from '#server/platform/mailer';
import * as repository from './email-verification.repository';

export const EMAIL_VERIFICATION_TTL_MS = EMAIL_VERIFICATION_TTL_HOURS * 60 * 60 * 1000;

/**
 * Mails a verification link. The job makes the token, so no token is ever stored in the queue: only its
 * hash, in `email_verifications`. `tellAddress`: the address an e-mail change moves away from, told too.
 */
export const sendEmailVerificationJob = defineJob({
  name: 'auth.send-email-verification',
  payload: z.object({
    userId: z.uuid(),
    purpose: z.enum(['sign-up', 'email-change']),
    sessionId: z.uuid().optional(),
    tellAddress: z.string().optional(),
  }),
  queue: MAIL_ON_REQUEST_QUEUE,
});

/** Someone signed up with an address that has an account: its owner is told, nobody else learns it. */
export const sendSignUpAttemptJob = defineJob({
  name: 'auth.send-sign-up-attempt',
  payload: z.object({ email: z.string() }),
  queue: MAIL_ON_REQUEST_QUEUE,
});

export interface VerificationMailDeps {
  db: Database;
  clock: Clock;
  mailer: Mailer;
  logger: Logger;
  appUrl: string;
  legal: LegalLinks;
}

/** `jane.doe@example.com` → `j•••@example.com`: enough for the owner to recognise, not to read. */
export function maskEmail(email: string) {
  const at = email.lastIndexOf('@');
  return `${email.slice(0, 1)}•••${email.slice(at)}`;
}

/**
 * A single-use link for the address this purpose proves (the account's unconfirmed address, or its pending
 * new one), stored as a hash; undefined when there is nothing to prove any more.
 */
export async function createEmailVerification(
  deps: Pick<VerificationMailDeps, 'db' | 'clock'>,
  request: { userId: string; purpose: repository.VerificationPurpose; sessionId?: string | undefined },
) {
  const user = await users.findUserById(deps.db, request.userId);
  if (!user) return undefined;
  const email = request.purpose === 'sign-up' ? (user.confirmed ? null : user.email) : user.pendingEmail;
  if (!email) return undefined;
  const token = randomToken();
  await repository.insertEmailVerification(deps.db, {
    userId: user.userId,
    purpose: request.purpose,
    email,
    sessionId: request.sessionId ?? null,
    tokenHash: hashToken(token),
    expiresAt: new Date(deps.clock.now().getTime() + EMAIL_VERIFICATION_TTL_MS),
  });
  return { user, email, token };
}

async function send(
  deps: VerificationMailDeps,
  to: string,
  mail: Omit<Parameters<typeof ActionEmail>[0], 'legal' | 'title'> & { subject: string },
) {
  const { subject, ...content } = mail;
  const { html, text } = await renderEmail(
    createElement(ActionEmail, { ...content, title: subject, legal: deps.legal }),
  );
  await deps.mailer.send({ to, subject, html, text });
}

export async function sendEmailVerification(
  deps: VerificationMailDeps,
  payload: z.output<typeof sendEmailVerificationJob.payload>,
) {
  const created = await createEmailVerification(deps, payload);
  if (!created) return;
  const link = `${deps.appUrl}/verify-email?token=${encodeURIComponent(created.token)}`;
  const validity = `The link works once, for ${EMAIL_VERIFICATION_TTL_HOURS} hours.`;
  if (payload.purpose === 'sign-up') {
    await send(deps, created.email, {
      subject: 'Confirm your e-mail address for Digest',
      preview: 'One click to finish signing up',
      heading: 'Confirm your e-mail address',
      paragraphs: [
        'Thanks for signing up to Digest. Confirm that this address is yours with the button below, and we will sign you in.',
        validity,
      ],
      action: { label: 'Confirm my address', href: link },
      footnote:
        'If you did not sign up, ignore this e-mail: without the confirmation, nothing is sent from the account.',
    });
  } else {
    await send(deps, created.email, {
      subject: 'Confirm your new e-mail address for Digest',
      preview: 'One click to make this your Digest address',
      heading: 'Confirm your new e-mail address',
      paragraphs: [
        'You asked to use this address for your Digest account. Confirm it with the button below: until then, your account keeps its current address.',
        validity,
      ],
      action: { label: 'Use this address', href: link },
      footnote: 'If you did not ask for this, ignore this e-mail: the account stays as it is.',
    });
    if (payload.tellAddress) {
      await send(deps, payload.tellAddress, {
        subject: 'Your Digest e-mail address is being changed',
        preview: `A change to ${maskEmail(created.email)} was asked for`,
        heading: 'Your e-mail address is being changed',
        paragraphs: [
          `Someone signed in to your Digest account with its password and asked to change its e-mail address to ${maskEmail(created.email)}. The change takes effect once the new address is confirmed.`,
          'If this wasn’t you, reset your password now: a reset ends every session and keeps this address.',
        ],
        action: { label: 'Reset my password', href: `${deps.appUrl}/forgetPassword` },
      });
    }
  }
  deps.logger.info({ userId: created.user.userId, purpose: payload.purpose }, 'verification link sent');
}

export async function sendSignUpAttempt(deps: VerificationMailDeps, { email }: { email: string }) {
  const user = await users.findUserByEmail(deps.db, email);
  if (!user) return;
  await send(deps, user.email, {
    subject: 'Someone tried to sign up to Digest with your address',
    preview: 'Your address already has a Digest account',
    heading: 'You already have an account',
    paragraphs: [
      'Someone just tried to create a Digest account with this e-mail address, which already has one. If it was you, log in instead; if you forgot your password, reset it.',
    ],
    action: { label: 'Reset my password', href: `${deps.appUrl}/forgetPassword` },
    footnote: `If it was not you, ignore this e-mail: nobody can sign up with your address, and your account stays as it is. Log in at ${deps.appUrl}/login.`,
  });
  deps.logger.info({ userId: user.userId }, 'sign-up attempt on an existing account told');
}
