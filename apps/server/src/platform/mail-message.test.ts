import { generateKeyPairSync } from 'node:crypto';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { dkimTxtRecord } from './dkim-record';
import { createMessageComposer, encodeQuotedPrintable, relaxedBody } from './mail-message';

/** What a rendered issue holds that encoders get wrong: long lines, `=`, UTF-8 of every width, edge spaces. */
const html = [
  '<!DOCTYPE html><html><body style="margin:0">',
  `<p>${'Très long paragraphe “cité” avec = signes et émojis 🎉 '.repeat(60)}</p>`,
  `<a href="https://digest.example/p?a=1&amp;b=2">lien</a>${'x'.repeat(200)}`,
  'line ending in a space ',
  'line ending in a tab\t',
  '.a line starting with a dot',
  '   spaced    out   ',
  '',
  '',
].join('\n');
const text = `Digest\n\n${'Ünïcödé text, 100 % “quoted” = fine. '.repeat(40)}\n\n.dot\nFrom here\n  trailing  \n`;

const compose = createMessageComposer(undefined);
const options = {
  from: 'Digest <digest@digest.test>',
  to: 'ann@example.com',
  subject: 'Digest “Ünïcödé”, issue 3',
  html,
  text,
  messageId: '<m1@digest.test>',
  headers: { 'List-Id': '"Ünïcödé" <d1.digests.digest.test>' },
};

describe('the message the mailer composes', () => {
  it('parses as multipart/alternative with the exact text and HTML, each part quoted-printable', async () => {
    const { message } = compose(options);
    const parsed = await simpleParser(message);
    expect(parsed.headers.get('content-type')).toMatchObject({ value: 'multipart/alternative' });
    // mailparser gives line breaks as LF; the text part loses nothing else, the HTML nothing at all.
    expect(parsed.text).toBe(text);
    expect(parsed.html).toBe(html);
    expect(parsed.subject).toBe('Digest “Ünïcödé”, issue 3');
    expect(parsed.messageId).toBe('<m1@digest.test>');
    expect(message.toString().match(/Content-Transfer-Encoding: quoted-printable/g)).toHaveLength(2);
  });

  it('is 7-bit with CRLF line breaks only, no line over 76 characters in the body', () => {
    const raw = compose(options).message.toString('latin1');
    expect(raw).not.toMatch(/[\u0080-\uffff]/);
    expect(raw).not.toMatch(/\r(?!\n)|(?<!\r)\n/);
    const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
    for (const line of body.split('\r\n')) expect(line.length).toBeLessThanOrEqual(76);
  });

  it('answers the envelope and the Message-ID it wrote', () => {
    const composed = compose({
      ...options,
      envelope: { from: 'digest+b-x@digest.test', to: 'ann@example.com' },
    });
    expect(composed.envelope).toEqual({ from: 'digest+b-x@digest.test', to: ['ann@example.com'] });
    expect(composed.messageId).toBe('<m1@digest.test>');
  });
});

describe('encodeQuotedPrintable (RFC 2045 §6.7)', () => {
  it('escapes = and every byte outside printable ASCII, keeps the rest as written', () => {
    expect(encodeQuotedPrintable('a=b “c” é\u0001\tz')).toBe('a=3Db =E2=80=9Cc=E2=80=9D =C3=A9=01\tz');
  });

  it('escapes a space or tab that ends a line, and only then', () => {
    expect(encodeQuotedPrintable('a \nb\t\nc d ')).toBe('a=20\r\nb=09\r\nc d=20');
  });

  it('splits long lines with soft breaks that never cut an escape nor a UTF-8 character', () => {
    const encoded = encodeQuotedPrintable(`${'a'.repeat(73)}é${'€'.repeat(40)}`);
    const lines = encoded.split('\r\n');
    for (const line of lines) {
      expect(line.length).toBeLessThanOrEqual(76);
      expect(line).toMatch(/^(?:[^=]|=[0-9A-F]{2})*=?$/);
    }
    // Each line after the first starts a character: its first escape is not a continuation byte.
    for (const line of lines.slice(1)) expect(line).toMatch(/^=(?:C3|E2)/);
    expect(
      Buffer.from(lines.map((line) => line.replace(/=$/, '')).join(''), 'latin1').toString('latin1'),
    ).toBe(`${'a'.repeat(73)}=C3=A9${'=E2=82=AC'.repeat(40)}`);
  });
});

describe('relaxedBody (RFC 6376 §3.4.4)', () => {
  it('shrinks whitespace runs, drops it at line ends and drops empty lines at the end', () => {
    expect(relaxedBody('a  b\t c \r\n\t\r\nd\r\n\r\n\r\n')).toBe('a b c\r\n\r\nd\r\n');
    expect(relaxedBody('\r\n\r\n')).toBe('');
    expect(relaxedBody('x')).toBe('x\r\n');
  });
});

describe('DKIM over the composed message', () => {
  const privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
  const signing = createMessageComposer({ domainName: 'digest.test', keySelector: 's1', privateKey });
  const resolver = async (name: string, type: string) => {
    if (name === 's1._domainkey.digest.test' && type === 'TXT') return [[dkimTxtRecord(privateKey)]];
    throw Object.assign(new Error(`no ${type} record for ${name}`), { code: 'ENOTFOUND' });
  };

  it('verifies with an independent verifier, long UTF-8 body, edge whitespace and UTF-8 headers included', async () => {
    const { message } = signing({ ...options, replyTo: 'Zoë Ünïcödé <zoe@example.com>' });
    expect(
      message.toString().startsWith('DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=digest.test;'),
    ).toBe(true);
    const { results } = await dkimVerify(message, { resolver });
    expect(results[0]).toMatchObject({ status: { result: 'pass' } });
  });

  it('does not verify once a byte of the body changed (the body hash differs)', async () => {
    const tampered = signing(options).message.toString().replace('lien', 'lion');
    const { results } = await dkimVerify(Buffer.from(tampered), { resolver });
    expect(results[0]?.status.result).toBe('neutral');
    expect(results[0]?.status.comment).toMatch(/body hash/i);
  });
});
