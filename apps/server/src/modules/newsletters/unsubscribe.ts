import { isIP } from 'node:net';
import type { NewsletterUnsubscribeResponse } from '@digest/contracts';
import { AppError } from '#server/platform/http/errors';
import type { Mailer } from '#server/platform/mailer';
import type { AddressPolicy } from '#server/platform/safe-fetch/address-policy';
import { FetchError, type SafeFetch } from '#server/platform/safe-fetch/types';
import { escapeHtml } from '#server/platform/sanitize-html';
import { presentSender } from './newsletters.presenter';
import * as repository from './newsletters.repository';
import { mailboxAddressOf, type NewslettersDeps, senderOf } from './newsletters.usecases';

/**
 * Unsubscribe with the sender's own List-Unsubscribe (RFC 2369), on the user's behalf:
 * 1. RFC 8058 one-click: `POST List-Unsubscribe=One-Click` to its https link, through the safe fetcher
 *    (no cookies or credentials, every hop checked against private networks, bounded time and size);
 * 2. else (or when that failed) its `mailto:`, mailed from the user's own address with its subject and body;
 * 3. a plain web link without one-click is only handed back for the user to open: a GET may confirm or
 *    unsubscribe anything, and mail scanners are why RFC 8058 exists, so it is never fetched for them.
 * The outcome (sent or failed, with what happened) is stored on the sender, and a sent one makes it
 * `unsubscribed` (a blocked sender stays blocked).
 */

export interface UnsubscribeDeps extends NewslettersDeps {
  mailer: Pick<Mailer, 'send'>;
  safeFetch: SafeFetch;
  /** FETCH_ALLOW_PRIVATE_HOSTS: the only hosts a one-click link may name over plain http (a test's server, an intranet). */
  privateHosts: Pick<AddressPolicy, 'allowsAnyPort'>;
}

export const unsubscribeErrors = {
  noWay: () =>
    new AppError(
      422,
      'NO_UNSUBSCRIBE',
      'This sender gives no way to unsubscribe (its mail has no List-Unsubscribe header). Block it instead.',
    ),
  noAddress: () =>
    new AppError(
      422,
      'NO_NEWSLETTER_ADDRESS',
      'Choose a username first: the request is mailed from your newsletter address.',
    ),
};

const ONE_CLICK_TIMEOUT_MS = 10_000;
const ONE_CLICK_MAX_BYTES = 64 * 1024;
const ONE_CLICK_MAX_REDIRECTS = 3;

/** One plain address, as a mailto: may name (no display name, no list, no line break). */
const MAILTO_ADDRESS = /^[^\s@<>(),;:"\\]+@[a-z0-9.-]+\.[a-z]{2,}$/i;

type Attempt = { outcome: 'sent' | 'failed'; detail: string };

/** The one-click link if it may be posted to: https, or http only to an allow-listed host. */
function oneClickTarget(value: string, privateHosts: UnsubscribeDeps['privateHosts']): URL | string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'The unsubscribe link is not a valid address.';
  }
  if (url.protocol === 'https:') return url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // Allow-listed by name, or an allow-listed IP: what FETCH_ALLOW_PRIVATE_HOSTS names, nothing it merely resolves to.
  if (url.protocol === 'http:' && privateHosts.allowsAnyPort(host, isIP(host) ? [host] : [])) return url;
  return 'Only https unsubscribe links are used.';
}

async function postOneClick(deps: UnsubscribeDeps, link: string): Promise<Attempt> {
  const target = oneClickTarget(link, deps.privateHosts);
  if (typeof target === 'string') return { outcome: 'failed', detail: target };
  try {
    const response = await deps.safeFetch({
      url: target.href,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
      timeoutMs: ONE_CLICK_TIMEOUT_MS,
      maxBytes: ONE_CLICK_MAX_BYTES,
      maxRedirects: ONE_CLICK_MAX_REDIRECTS,
    });
    if (response.status >= 200 && response.status < 300) {
      return { outcome: 'sent', detail: `${target.host} accepted the one-click unsubscribe.` };
    }
    return { outcome: 'failed', detail: `${target.host} answered HTTP ${response.status}.` };
  } catch (error) {
    if (error instanceof FetchError) return { outcome: 'failed', detail: error.message };
    throw error;
  }
}

/** `mailto:list@x?subject=unsubscribe&body=…` → where and what to send, or a reason it is refused. */
function parseMailto(value: string): { to: string; subject: string; body: string } | string {
  if (!/^mailto:/i.test(value)) return 'The unsubscribe address is not a mailto: link.';
  const [rawTo = '', query = ''] = value.slice('mailto:'.length).split('?', 2);
  let to: string;
  try {
    to = decodeURIComponent(rawTo).trim();
  } catch {
    return 'The unsubscribe address is not valid.';
  }
  if (!MAILTO_ADDRESS.test(to)) return 'The unsubscribe address is not a single valid address.';
  const params = new URLSearchParams(query);
  // A line break in the subject would be refused by the mailer; one line is all a list needs.
  const subject = (params.get('subject') ?? 'unsubscribe')
    .replace(/[\r\n\t]+/g, ' ')
    .trim()
    .slice(0, 200);
  const body = (params.get('body') ?? 'unsubscribe').slice(0, 2_000);
  return { to, subject: subject || 'unsubscribe', body };
}

async function mailUnsubscribe(deps: UnsubscribeDeps, from: string, mailto: string): Promise<Attempt> {
  const request = parseMailto(mailto);
  if (typeof request === 'string') return { outcome: 'failed', detail: request };
  try {
    await deps.mailer.send({
      fromMailbox: from,
      to: request.to,
      subject: request.subject,
      text: request.body,
      html: `<p>${escapeHtml(request.body)}</p>`,
    });
    return { outcome: 'sent', detail: `The request was mailed to ${request.to}.` };
  } catch (error) {
    const code = (error as { responseCode?: number }).responseCode;
    return {
      outcome: 'failed',
      detail: `The request to ${request.to} could not be mailed${code ? ` (the mail server answered ${code})` : ''}.`,
    };
  }
}

export async function unsubscribeSender(
  deps: UnsubscribeDeps,
  userId: string,
  senderId: string,
): Promise<NewsletterUnsubscribeResponse> {
  const { sender } = await senderOf(deps, userId, senderId);
  const oneClick = sender.unsubscribeOneClick && sender.unsubscribeUrl ? sender.unsubscribeUrl : null;
  const mailto = sender.unsubscribeMailto;
  let attempt: Attempt | undefined = oneClick ? await postOneClick(deps, oneClick) : undefined;
  if (mailto && attempt?.outcome !== 'sent') {
    const from = await mailboxAddressOf(deps, userId);
    if (!from && !attempt) throw unsubscribeErrors.noAddress();
    if (from) {
      const mailed = await mailUnsubscribe(deps, from, mailto);
      // When both failed, say both.
      attempt =
        attempt && mailed.outcome === 'failed'
          ? { ...mailed, detail: `${attempt.detail} ${mailed.detail}` }
          : mailed;
    }
  }
  if (attempt) {
    await repository.recordUnsubscribe(deps.db, userId, senderId, { ...attempt, at: deps.clock.now() });
    return {
      outcome: attempt.outcome,
      detail: attempt.detail,
      link: null,
      sender: presentSender(await senderOf(deps, userId, senderId)),
    };
  }
  const link = sender.unsubscribeUrl ? oneClickTarget(sender.unsubscribeUrl, deps.privateHosts) : undefined;
  if (link instanceof URL) {
    return {
      outcome: 'open_link',
      detail: 'This sender unsubscribes only on its own web page: open the link to finish.',
      link: link.href,
      sender: presentSender(await senderOf(deps, userId, senderId)),
    };
  }
  throw unsubscribeErrors.noWay();
}
