import type { NewsletterMessageKind } from '@digest/contracts';
import { DomUtils, parseDocument } from 'htmlparser2';
import { htmlToText } from '#server/platform/sanitize-html';
import type { ParsedInboundMessage } from './inbound-message';

/**
 * What a received message is, so the mailbox can pin what needs the user: a subscription to confirm by
 * a link, a forwarding verification (Gmail, Outlook) with its code, or a list that asks for a reply.
 * Everything else is a newsletter. Built from words, not from a model: each rule below is a phrase a real
 * sender uses, in English, German, French, Spanish, Italian, Portuguese, Dutch and Polish, and a message
 * must say what it wants confirmed (a subscription, an address, a sign-up) — a newsletter telling readers
 * to "verify your facts" stays a newsletter.
 */

export interface ClassifyInput {
  subject: string;
  /** The plain-text part (or the text of the HTML when there is none). */
  text: string;
  /** The HTML part, raw or sanitised, or null. */
  html: string | null;
  fromAddress: string;
  replyTo: string | null;
  /**
   * Headers with lower-case names. List mail (`List-Unsubscribe`) that only mentions confirming in its
   * body is an ordinary issue ("Not subscribed yet? Confirm your e-mail…"); its subject must say so.
   */
  headers?: Record<string, string>;
}

export interface Classification {
  kind: NewsletterMessageKind;
  /** The link that confirms, for a confirmation (http or https only, never an unsubscribe link). */
  confirmUrl: string | null;
  /** The verification code of a Gmail or Outlook forwarding verification. */
  forwardingCode: string | null;
}

const NEWSLETTER: Classification = { kind: 'newsletter', confirmUrl: null, forwardingCode: null };

/**
 * What is read of a message: what a confirmation says is near its top, and a sender's 10 MB of text must
 * not cost the ingest more than a few milliseconds.
 */
const MAX_TEXT = 50_000;
const MAX_LINKS = 500;
/** A "sentence" longer than this is no sentence a person wrote. */
const MAX_SENTENCE = 1_000;

/** Verbs of confirming, in the languages above, each from the start of a word ("creative" is not "ative"). */
const CONFIRM_WORD =
  '(?<!\\p{L})(?:confirm\\p{L}*|verif\\p{L}*|validat\\p{L}*|activat\\p{L}*|opt[- ]?in\\b|' +
  'bestätig\\p{L}*|aktivier\\p{L}*|verifizier\\p{L}*|' + // de
  'vérifi\\p{L}*|valide[rz]\\b|activez|activer\\b|' + // fr (confirmer: confirm…)
  'activa[rd]?\\b|' + // es (confirmar: confirm…)
  'conferm\\p{L}*|attiva\\p{L}*|' + // it
  'ativ[ae]r?\\b|ative\\p{L}*|' + // pt
  'bevestig\\p{L}*|activeer\\p{L}*|verifieer\\p{L}*|' + // nl
  'potwierd\\p{L}*|zweryfikuj\\p{L}*|weryfik\\p{L}*|aktywuj\\p{L}*)';

/** What is confirmed: a subscription, an address, a sign-up, an account. */
const CONFIRM_OBJECT =
  '(?<!\\p{L})(?:subscri\\p{L}*|sign[- ]?up|e-?mail|address|registration|account|newsletter|mailing list|' +
  'abonnement|abo\\b|anmeldung|registrierung|adresse|konto|' + // de
  'inscription|compte|courriel|' + // fr
  'suscripci\\p{L}*|dirección|registro|cuenta|correo|' + // es
  'iscrizione|indirizzo|registrazione|' + // it
  'inscrição|assinatura|endereço|cadastro|conta|' + // pt
  'inschrijving|aanmelding|e-?mailadres|' + // nl
  'subskrypcj\\p{L}*|zapis\\p{L}*|adres\\p{L}*|rejestracj\\p{L}*|konta)';

/** At most two short words between the verb and its object ("confirm your e-mail", "bestätigen Sie Ihre Anmeldung"). */
const GAP = "(?:[\\s,]+[\\p{L}'’-]{1,12}){0,2}[\\s,]+";

/** A confirm verb with what it confirms, either way round ("confirm your subscription", "Anmeldung bestätigen"). */
const CONFIRM_PHRASE = new RegExp(
  `${CONFIRM_WORD}${GAP}${CONFIRM_OBJECT}|${CONFIRM_OBJECT}${GAP}${CONFIRM_WORD}|double[- ]opt[- ]?in`,
  'iu',
);

/** Words of a link that confirms, in its text or its URL. */
const CONFIRM_LINK = new RegExp(
  `${CONFIRM_WORD}|yes,? subscribe|subscribe me|ja,? ich möchte|oui,? je|sí,? quiero|\\bdoi\\b|optin`,
  'iu',
);

/** Words of a link that would do the opposite: never chosen as the confirm link. */
const UNSUBSCRIBE_LINK =
  /unsub|opt[-_ ]?out|abmeld|austragen|d[ée]sinscri|d[ée]sabonn|\bbaja\b|\bcancel|disiscri|annull|descadastr|afmeld|uitschrij|wypisz|rezygn|preferences|einstellungen|not you|\breport\b|abuse|\bspam\b/iu;

/** "Reply to this e-mail", in the languages above. */
const REPLY_PHRASE = [
  '\\b(?:reply|respond) to (?:this|the|our) (?:e-?mail|message|mail)',
  '\\breply (?:with )?["“\'‘]?yes\\b',
  '\\b(?:simply|just) (?:hit )?(?:reply|respond)',
  '\\bhit reply',
  'antworte\\p{L}* (?:sie |du )?(?:einfach |bitte )?auf diese (?:e-?mail|nachricht|mail)',
  'auf diese (?:e-?mail|nachricht) antworten',
  'répond\\p{L}* (?:simplement |directement )?à (?:ce|cet) (?:e-?mail|message|courriel|mail)',
  'respond\\p{L}* (?:a )?(?:este|esta) (?:correo|mensaje|e-?mail|mensagem)',
  'rispond\\p{L}* (?:semplicemente )?a (?:questa|questo) (?:e-?mail|mail|messaggio)',
  '(?:beantwoord|antwoord op) (?:deze|dit) (?:e-?mail|mail|bericht)',
  'odpowiedz\\p{L}* na (?:ten|tę|tą) (?:e-?mail|mail|wiadomość)',
].join('|');

/**
 * The sentence around a reply phrase must be about confirming: "reply to this e-mail to confirm". Split
 * first, so no pattern scans a long unpunctuated text from every position (the text is the sender's).
 */
function hasReplyToConfirm(text: string): boolean {
  const reply = new RegExp(REPLY_PHRASE, 'iu');
  const confirming = new RegExp(`${CONFIRM_WORD}|(?<!\\p{L})(?:subscri\\p{L}*|join)`, 'iu');
  return (
    text
      .split(/[.!?]+|\n\s*\n/)
      .filter((sentence) => sentence.length <= MAX_SENTENCE)
      // Plain text is wrapped at ~72 characters: a sentence runs on over its line breaks.
      .map((sentence) => sentence.replace(/\s+/g, ' '))
      .some((sentence) => reply.test(sentence) && confirming.test(sentence))
  );
}

interface Link {
  url: string;
  /** The link's text (HTML), or the text of its line and the line before (plain text). */
  text: string;
}

const URL_IN_TEXT = /https?:\/\/[^\s<>"'()[\]{}]+[^\s<>"'()[\]{}.,;:!?]/giu;

function linksOf(input: ClassifyInput): Link[] {
  const links: Link[] = [];
  if (input.html) {
    const document = parseDocument(input.html);
    for (const anchor of DomUtils.getElementsByTagName('a', document)) {
      const href = anchor.attribs.href?.trim();
      if (href) links.push({ url: href, text: DomUtils.textContent(anchor).replace(/\s+/g, ' ').trim() });
    }
  }
  const lines = input.text.slice(0, MAX_TEXT).split(/\r?\n/);
  for (const [index, line] of lines.entries()) {
    for (const match of line.matchAll(URL_IN_TEXT)) {
      links.push({ url: match[0], text: `${lines[index - 1] ?? ''} ${line.replace(match[0], ' ')}` });
    }
  }
  return links.slice(0, MAX_LINKS);
}

/** An http(s) URL as written, or undefined for anything else (javascript:, mailto:, relative). */
function httpUrl(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The link that confirms: the first whose text says confirm (a button "Confirm my subscription"), else
 * the first whose URL does (`/subscribe/confirm?…`); never one that says unsubscribe, in its text or URL.
 */
function confirmLinkOf(links: Link[]): string | undefined {
  const candidates = links
    .map((link) => ({ ...link, url: httpUrl(link.url) }))
    .filter((link): link is Link => link.url !== undefined)
    .filter((link) => !UNSUBSCRIBE_LINK.test(link.text) && !UNSUBSCRIBE_LINK.test(link.url));
  const byText = candidates.find((link) => CONFIRM_LINK.test(link.text));
  if (byText) return byText.url;
  return candidates.find((link) => CONFIRM_LINK.test(decodeURIComponentSafely(link.url)))?.url;
}

function decodeURIComponentSafely(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * Gmail's "(#123456789) Gmail Forwarding Confirmation - Receive Mail from …" (its subject carries the code in
 * every language), sent by forwarding-noreply@google.com, with the code and a link that confirms.
 */
function gmailForwarding(input: ClassifyInput, body: string, links: Link[]): Classification | undefined {
  const fromGoogle = /^forwarding-noreply@google\.com$/i.test(input.fromAddress);
  const subjectCode = /\(#(\d{6,12})\)/.exec(input.subject)?.[1];
  const saysForwarding = /gmail/i.test(input.subject) && subjectCode !== undefined;
  if (!fromGoogle && !saysForwarding) return undefined;
  const code = subjectCode ?? /(?:confirmation code|code)\s*:\s*(\d{6,12})/i.exec(body)?.[1];
  if (!code) return undefined;
  const confirmUrl = links
    .map((link) => httpUrl(link.url))
    .find(
      (url) =>
        url !== undefined && /^https:\/\/(?:mail-settings|mail|isolated\.mail)\.google\.com\//.test(url),
    );
  return { kind: 'forwarding_code', confirmUrl: confirmUrl ?? null, forwardingCode: code };
}

/**
 * Outlook / Microsoft's verification of a forwarding (or alias) address: a security code and no link, from
 * Microsoft's account-security sender ("Security code: 1234567", "Sicherheitscode: …", "Code de sécurité : …").
 */
function outlookForwarding(input: ClassifyInput, body: string): Classification | undefined {
  const [local = '', domain = ''] = input.fromAddress.toLowerCase().split('@');
  const fromMicrosoft = /(?:^|\.)(?:microsoft|outlook|live|hotmail)\.com$/.test(domain);
  if (!fromMicrosoft || !(domain.startsWith('accountprotection.') || /security|verif/.test(local))) {
    return undefined;
  }
  const code =
    /(?:security code|sicherheitscode|code de sécurité|código de seguridad|codice di sicurezza|código de segurança|beveiligingscode|kod zabezpieczeń|verification code|this code|code)\s*:?\s*(\d{4,10})\b/iu.exec(
      body,
    )?.[1];
  return code ? { kind: 'forwarding_code', confirmUrl: null, forwardingCode: code } : undefined;
}

/** What `input` is; a newsletter unless a rule above finds otherwise. Part of the ingest: pure, no I/O. */
export function classifyInboundMessage(input: ClassifyInput): Classification {
  const htmlText = input.html ? htmlToText(input.html).slice(0, MAX_TEXT) : '';
  const body = `${input.text.slice(0, MAX_TEXT)}\n${htmlText}`;
  const links = linksOf(input);

  const forwarding = gmailForwarding(input, body, links) ?? outlookForwarding(input, body);
  if (forwarding) return forwarding;

  const isListMail = input.headers?.['list-unsubscribe'] !== undefined;
  const asksToConfirm = CONFIRM_PHRASE.test(input.subject) || (!isListMail && CONFIRM_PHRASE.test(body));
  if (asksToConfirm) {
    const confirmUrl = confirmLinkOf(links);
    if (confirmUrl) return { kind: 'confirmation', confirmUrl, forwardingCode: null };
  }
  if (hasReplyToConfirm(input.subject) || ((!isListMail || asksToConfirm) && hasReplyToConfirm(body))) {
    return { kind: 'reply_to_confirm', confirmUrl: null, forwardingCode: null };
  }
  return NEWSLETTER;
}

/**
 * The inbound server's classifier (`app/start.ts` gives it to the SMTP server): a parsed message read as
 * above. The parsed message keeps List-Unsubscribe only as the sender's targets, which is all the rule for
 * list mail needs to know.
 */
export function classifyParsedMessage({ sender, message }: ParsedInboundMessage): Classification {
  const isListMail = sender.unsubscribeUrl !== null || sender.unsubscribeMailto !== null;
  return classifyInboundMessage({
    subject: message.subject,
    text: message.text,
    html: message.html ?? null,
    fromAddress: message.fromAddress,
    replyTo: message.replyTo ?? null,
    headers: isListMail
      ? { 'list-unsubscribe': sender.unsubscribeUrl ?? sender.unsubscribeMailto ?? '' }
      : {},
  });
}
