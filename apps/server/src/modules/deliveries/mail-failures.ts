/**
 * How an SMTP failure is treated. nodemailer keeps the server's reply code: 5xx is a permanent refusal
 * (unknown mailbox, message refused), 4xx a temporary one (greylisting, mailbox full, try later).
 * Without a code the failure happened before an answer (connection refused, timeout, TLS): temporary,
 * except a refused envelope or message, which no retry can fix.
 */
export function isPermanentMailFailure(error: unknown): boolean {
  const { responseCode, code } = (error ?? {}) as { responseCode?: number; code?: string };
  if (typeof responseCode === 'number') return responseCode >= 500 && responseCode < 600;
  return code === 'EENVELOPE' || code === 'EMESSAGE';
}

/** What the delivery row keeps: the server's answer or the error, never more than a line of text. */
export function mailFailureText(error: unknown): string {
  const { responseCode, code, message } = (error ?? {}) as {
    responseCode?: number;
    code?: string;
    message?: string;
  };
  const parts = [responseCode ? String(responseCode) : undefined, code, message].filter(Boolean);
  return (parts.join(' ') || 'Unknown failure').replace(/\s+/g, ' ').slice(0, 500);
}

/** The receiving server refused the address or message for good (SMTP 5xx): the address bounces. */
export function isBounce(error: unknown): boolean {
  const { responseCode } = (error ?? {}) as { responseCode?: number };
  return typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600;
}

/** The failure came with an SMTP answer (any reply code), not from a connection lost or timed out. */
export function isAnswered(error: unknown): boolean {
  return typeof (error as { responseCode?: unknown } | undefined)?.responseCode === 'number';
}
