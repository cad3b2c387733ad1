import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from '@playwright/test';
import { type ParsedMail, simpleParser } from 'mailparser';

/** Where scripts/e2e.mjs's SMTP server writes every message the app sends. */
function mailDir(): string {
  const dir = process.env.E2E_MAIL_DIR;
  if (!dir) throw new Error('E2E_MAIL_DIR is not set: run the specs through `npm run test:e2e`');
  return dir;
}

export interface ReceivedMail {
  /** Envelope recipients, as the SMTP server saw them. */
  to: string[];
  mail: ParsedMail;
}

export async function receivedMail(): Promise<ReceivedMail[]> {
  const dir = mailDir();
  const files = (await readdir(dir)).filter((name) => name.endsWith('.eml')).sort();
  return Promise.all(
    files.map(async (name) => ({
      to: JSON.parse(await readFile(path.join(dir, `${name}.json`), 'utf8')).to as string[],
      mail: await simpleParser(await readFile(path.join(dir, name))),
    })),
  );
}

/** Waits for the newest message to `address` whose subject matches, and returns it. */
export async function waitForMail(address: string, subject: RegExp, timeout = 20_000): Promise<ParsedMail> {
  let found: ParsedMail | undefined;
  await expect
    .poll(
      async () => {
        const matching = (await receivedMail()).filter(
          ({ to, mail }) => to.includes(address.toLowerCase()) && subject.test(mail.subject ?? ''),
        );
        found = matching.at(-1)?.mail;
        return found !== undefined;
      },
      { timeout, message: `no mail to ${address} with subject ${subject}` },
    )
    .toBe(true);
  return found as ParsedMail;
}

/**
 * The in-app path (`/verify-email?token=…`) of the newest verification link mailed to `address`: a sign-up's
 * by default, or another kind's (an e-mail change) by its subject.
 */
export async function verificationLink(
  address: string,
  subject = /^Confirm your e-mail address for Digest$/,
): Promise<string> {
  const mail = await waitForMail(address, subject);
  const link = /https?:\/\/\S+\/verify-email\?token=[\w%-]+/.exec(mail.text ?? '')?.[0];
  expect(link, `a verification link in the mail to ${address}`).toBeDefined();
  const url = new URL(link ?? '');
  return `${url.pathname}${url.search}`;
}
