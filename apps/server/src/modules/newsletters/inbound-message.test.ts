import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#server/db/client';
import { insertUser } from '#server/modules/users/users.repository';
import { createTestDatabase } from '#server-test/test-database';
import {
  derivedMessageId,
  excerptOf,
  listIdOf,
  parseInboundMessage,
  UnacceptableMessageError,
  unsubscribeTargetsOf,
} from './inbound-message';
import { storeInboundMessage } from './mailbox.repository';

const CORPUS = fileURLToPath(new URL('../../../../../test/fixtures/email-corpus', import.meta.url));
const envelope = { envelopeFrom: 'bounce@esp.example', receivedAt: new Date('2026-11-25T10:00:00Z') };

const parse = (raw: string | Buffer) =>
  parseInboundMessage(
    typeof raw === 'string' ? Buffer.from(raw.replace(/\r?\n/g, '\r\n'), 'latin1') : raw,
    envelope,
  );

let database: DatabaseHandle;
let userId: string;
beforeAll(async () => {
  database = await createTestDatabase();
  userId = (await insertUser(database.db, { email: `${randomUUID()}@example.com`, username: 'corpus' }))
    .userId;
});
afterAll(async () => {
  await database?.close();
});

/** Stores a parsed message as the server would: proof that what was parsed fits the table. */
async function store(raw: Buffer) {
  const parsed = await parseInboundMessage(raw, envelope);
  return storeInboundMessage(database.db, {
    userId,
    sender: parsed.sender,
    message: {
      ...parsed.message,
      recipient: 'corpus@digest.test',
      recipientTag: null,
      kind: 'newsletter',
      confirmUrl: null,
      forwardingCode: null,
      authentication: {
        spf: { result: 'none', domain: null },
        dkim: { result: 'none', domain: null },
        dmarc: { result: 'none', domain: null },
      },
    },
  });
}

describe('the sender a message names', () => {
  it('reads List-Id inside its angle brackets, lower-cased, and a bare one', () => {
    expect(listIdOf('Weekly News <Weekly.News.Example>')).toBe('weekly.news.example');
    expect(listIdOf('weekly.news.example')).toBe('weekly.news.example');
    expect(listIdOf('<has space>')).toBeNull();
    expect(listIdOf(undefined)).toBeNull();
  });

  it('keeps only web and mailto: unsubscribe targets, an https one before a plain http one', () => {
    expect(unsubscribeTargetsOf('<javascript:alert(1)>, <file:///etc/passwd>, <mailto:u@x.example>')).toEqual(
      {
        url: null,
        mailto: 'mailto:u@x.example',
      },
    );
    expect(unsubscribeTargetsOf('<https://x.example/u?id=1>')).toEqual({
      url: 'https://x.example/u?id=1',
      mailto: null,
    });
    expect(unsubscribeTargetsOf('<http://plain.example/u>, <https://x.example/u>')).toEqual({
      url: 'https://x.example/u',
      mailto: null,
    });
    // Kept for an allow-listed host; unsubscribe.ts refuses plain http to any other (unsubscribe.test.ts).
    expect(unsubscribeTargetsOf('<http://127.0.0.1:8080/u>').url).toBe('http://127.0.0.1:8080/u');
  });

  it('allows one-click only with List-Unsubscribe-Post: List-Unsubscribe=One-Click and a web target', async () => {
    const message = (post: string, target: string) =>
      parse(
        `From: News <news@letters.example>\nList-Unsubscribe: <${target}>\nList-Unsubscribe-Post: ${post}\nSubject: s\n\nbody\n`,
      );
    expect(
      (await message('List-Unsubscribe=One-Click', 'https://x.example/u')).sender.unsubscribeOneClick,
    ).toBe(true);
    expect((await message('Something=Else', 'https://x.example/u')).sender.unsubscribeOneClick).toBe(false);
    expect(
      (await message('List-Unsubscribe=One-Click', 'mailto:u@x.example')).sender.unsubscribeOneClick,
    ).toBe(false);
  });

  it('refuses a message with no sender address at all', async () => {
    await expect(
      parseInboundMessage(Buffer.from('Subject: nobody\r\n\r\nhi\r\n'), { ...envelope, envelopeFrom: '' }),
    ).rejects.toBeInstanceOf(UnacceptableMessageError);
  });
});

describe('the content kept', () => {
  it('keeps no script from the sanitiser’s attack vectors', async () => {
    const html = [
      '<script>alert(1)</script>',
      '<img src="https://cdn.example/a.png" onerror="alert(2)" width="300">',
      '<a href="javascript:alert(3)">click</a>',
      '<a href="JaVaScRiPt&#x3A;alert(4)">click</a>',
      '<iframe src="https://evil.example"></iframe>',
      '<form action="https://evil.example"><input name="password"></form>',
      '<div style="width: expression(alert(5))">css</div>',
      '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCg2KTwvc2NyaXB0Pg==">data</a>',
      '<object data="https://evil.example/x.swf"></object><embed src="https://evil.example/x.swf">',
      '<svg onload="alert(7)"><script>alert(8)</script></svg>',
      '<p>Readable text stays.</p>',
    ].join('');
    const { message } = await parse(
      `From: news@letters.example\nSubject: attack\nContent-Type: text/html; charset=utf-8\n\n${html}\n`,
    );
    expect(message.html).toContain('<p>Readable text stays.</p>');
    expect(message.html).toContain('<img src="https://cdn.example/a.png" width="300" />');
    expect(message.html).not.toMatch(
      /<script|onerror|onload|javascript:|<iframe|<form|<input|expression\(|data:|<object|<embed|<svg|style=/i,
    );
  });

  it('drops tracking pixels and keeps the text of an HTML-only message', async () => {
    const { message } = await parse(
      'From: news@letters.example\nSubject: s\nContent-Type: text/html\n\n<h1>Issue 3</h1><p>Hello readers.</p><img src="https://t.example/o.gif" width="1" height="1">\n',
    );
    expect(message.html).toBe('<h1>Issue 3</h1><p>Hello readers.</p>');
    expect(message.text).toBe('Issue 3 Hello readers.');
    expect(message.excerpt).toBe('Issue 3 Hello readers.');
  });

  it('cuts a long excerpt at a word', () => {
    const excerpt = excerptOf('word '.repeat(100));
    expect(excerpt.length).toBeLessThanOrEqual(200);
    expect(excerpt).toMatch(/word…$/);
  });

  it('derives the same Message-ID from the same bytes, and another from other bytes', () => {
    expect(derivedMessageId(Buffer.from('a'))).toBe(derivedMessageId(Buffer.from('a')));
    expect(derivedMessageId(Buffer.from('a'))).not.toBe(derivedMessageId(Buffer.from('b')));
  });
});

describe('broken mail', () => {
  it('stores a message with an unknown charset, 8-bit headers and a NUL readable', async () => {
    const raw = Buffer.concat([
      Buffer.from(
        'From: J\xe9r\xf4me <jerome@letters.example>\r\nSubject: Caf\xe9 \xe0 la cr\xe8me\r\n',
        'latin1',
      ),
      Buffer.from('Subject-Extra: \xe6\x97\xa5\xe6\x9c\xac\r\n', 'latin1'),
      Buffer.from('Content-Type: text/plain; charset=x-made-up\r\n\r\nBonjour\u0000 le monde\r\n', 'latin1'),
    ]);
    const result = await store(raw);
    expect(result.stored).toBe(true);
    const { message, sender } = await parseInboundMessage(raw, envelope);
    expect(message.text).toContain('Bonjour le monde');
    expect(message.subject).toMatch(/^Caf.+ la cr.+me$/);
    expect(sender.address).toBe('jerome@letters.example');
  });

  it('stores a message whose charset lies (Latin-1 bytes declared UTF-8) and one with a broken MIME tree', async () => {
    const lying = Buffer.from(
      'From: news@letters.example\r\nSubject: s\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nna\xefve caf\xe9\r\n',
      'latin1',
    );
    expect((await store(lying)).stored).toBe(true);
    const broken = Buffer.from(
      'From: news@letters.example\r\nSubject: broken\r\nContent-Type: multipart/alternative; boundary="never"\r\n\r\n--other\r\nContent-Type: text/html\r\n\r\n<p>Unclosed <b>bold\r\n--never\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!not base64!!!\r\n',
    );
    expect((await store(broken)).stored).toBe(true);
  });

  it('parses every message of the e-mail corpus into a stored message or a clean refusal', async () => {
    const files: string[] = [];
    for (const folder of await readdir(CORPUS, { withFileTypes: true })) {
      if (!folder.isDirectory()) continue;
      const dir = path.join(CORPUS, folder.name);
      for (const name of await readdir(dir)) if (name.endsWith('.eml')) files.push(path.join(dir, name));
    }
    expect(files.length).toBeGreaterThanOrEqual(10);
    const outcomes: Record<string, string> = {};
    for (const file of files) {
      try {
        outcomes[path.basename(file)] = (await store(await readFile(file))).stored ? 'stored' : 'duplicate';
      } catch (error) {
        if (!(error instanceof UnacceptableMessageError)) throw error;
        outcomes[path.basename(file)] = 'refused';
      }
    }
    expect(Object.values(outcomes).filter((outcome) => outcome === 'stored').length).toBeGreaterThanOrEqual(
      files.length - 2,
    );
  }, 60_000);
});
