import { connect } from 'node:net';
import { createTransport } from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headerValue, type SmtpSink, startSmtpSink } from './smtp-sink';

let sink: SmtpSink;

beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(() => sink.stop());

function send(messageId: string, listId: string, to: string) {
  // A fresh transport per message: a pooled connection would outlive the sink's stop in the outage test.
  const transport = createTransport(sink.url);
  return transport
    .sendMail({
      from: 'digest@example.com',
      to,
      subject: 'Issue',
      text: 'Hello',
      messageId,
      headers: { 'List-Id': listId },
    })
    .finally(() => transport.close());
}

describe('SMTP sink', () => {
  it('unfolds a folded header and finds it whatever its case', () => {
    expect(headerValue('Subject: a\r\nlist-id: Digest\r\n <d1.example.com>\r\n', 'List-Id')).toBe(
      'Digest <d1.example.com>',
    );
    expect(headerValue('Subject: a', 'Message-ID')).toBe('');
  });

  it('records each message and counts a repeated Message-ID or (List-Id, recipient) as a duplicate', async () => {
    await send('<a@example.com>', '<d1.example.com>', 'one@example.com');
    await send('<b@example.com>', '<d1.example.com>', 'two@example.com');
    await send('<a@example.com>', '<d2.example.com>', 'one@example.com');
    await send('<c@example.com>', '<d1.example.com>', 'one@example.com');
    expect(sink.messages.map((message) => message.messageId)).toEqual([
      '<a@example.com>',
      '<b@example.com>',
      '<a@example.com>',
      '<c@example.com>',
    ]);
    expect(sink.messages[0]?.recipients).toEqual(['one@example.com']);
    const counts = sink.counts();
    expect(counts).toMatchObject({
      messages: 4,
      distinctMessageIds: 3,
      duplicateMessageIds: 1,
      duplicateListRecipients: 1,
    });
    expect(counts.perRecipient.get('one@example.com')).toBe(3);
  });

  it('refuses connections while stopped and accepts them again on the same port after a start', async () => {
    const port = sink.port;
    await sink.stop();
    await expect(send('<d@example.com>', '<d3.example.com>', 'x@example.com')).rejects.toMatchObject({
      code: 'ESOCKET',
    });
    await sink.start();
    expect(sink.port).toBe(port);
    await send('<e@example.com>', '<d3.example.com>', 'x@example.com');
    expect(sink.messages.at(-1)?.messageId).toBe('<e@example.com>');
  });

  it('survives a client that resets its connection mid-session (a killed worker)', async () => {
    const socket = connect(sink.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('data', resolve));
    socket.write('EHLO worker\r\nMAIL FROM:<digest@example.com>\r\n');
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.resetAndDestroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await send('<f@example.com>', '<d4.example.com>', 'y@example.com');
    expect(sink.messages.at(-1)?.messageId).toBe('<f@example.com>');
  });
});
