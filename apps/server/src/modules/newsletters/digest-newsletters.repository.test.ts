import { type SourceInputOf, sourceSchema } from '@digest/contracts';
import type { NewslettersContent } from '@digest/contracts/content';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueRuns } from '#server/db/schema';
import { createDigest } from '#server/modules/digests/test-support';
import { signUp, type TestUser } from '#server/modules/users/test-support';
import { createConnectors, fetchSourceContent } from '#server/sources/connectors';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { recordCarriedNewsletters } from './digest-newsletters.repository';
import { setSenderState } from './newsletters.repository';
import { receiveTestNewsletter } from './test-support';

// The Newsletters source kind read through its connector, on the real mailbox tables (the production
// wiring: composeModules gives the connector modules/newsletters' repository).
let t: TestApi;
beforeAll(async () => {
  t = await startTestApi({ appUrl: 'http://app.test' });
});
afterAll(async () => {
  await t?.close();
});

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

async function read(
  user: TestUser,
  settings: Omit<SourceInputOf<'NEWSLETTERS'>, 'type'> = {},
  digestId?: string,
): Promise<NewslettersContent> {
  const source = sourceSchema.parse({ type: 'NEWSLETTERS', ...settings });
  const context = { userId: user.userId, timezone: 'UTC', locale: 'en-US', digestId };
  return (await fetchSourceContent(createConnectors(t.sources), source, context)) as NewslettersContent;
}
const subjects = (content: NewslettersContent) => content.items.map((item) => item.subject);

describe('a Newsletters block reads its owner’s newsletters', () => {
  it('shows the owner’s newest first, up to the count, never another user’s', async () => {
    const [owner, other] = [await signUp(t), await signUp(t)];
    const db = t.database.db;
    for (const [index, minutes] of [30, 20, 10].entries()) {
      await receiveTestNewsletter(db, owner.userId, {
        subject: `Mine #${index + 1}`,
        receivedAt: minutesAgo(minutes),
      });
    }
    await receiveTestNewsletter(db, other.userId, { subject: 'Not mine', receivedAt: minutesAgo(1) });

    expect(subjects(await read(owner))).toEqual(['Mine #3', 'Mine #2', 'Mine #1']);
    expect(subjects(await read(owner, { count: 2 }))).toEqual(['Mine #3', 'Mine #2']);
    expect(subjects(await read(other))).toEqual(['Not mine']);
  });

  it('summary links each to its page in the app and carries no body', async () => {
    const owner = await signUp(t);
    const { messageId } = await receiveTestNewsletter(t.database.db, owner.userId, {
      fromName: 'Field Notes',
      html: '<p>The whole issue</p>',
      text: 'The whole issue, as text',
    });
    const [item] = (await read(owner)).items;
    expect(item).toMatchObject({
      messageId,
      senderName: 'Field Notes',
      url: `http://app.test/newsletters/${messageId}`,
      excerpt: 'The whole issue, as text',
      html: '',
      text: '',
      tooLong: false,
    });
  });

  it('full carries the stored sanitised HTML, or the text of a message without HTML', async () => {
    const owner = await signUp(t);
    const db = t.database.db;
    await receiveTestNewsletter(db, owner.userId, { html: '<p>Stored HTML</p>', receivedAt: minutesAgo(2) });
    await receiveTestNewsletter(db, owner.userId, {
      html: null,
      text: 'Only text',
      receivedAt: minutesAgo(1),
    });
    const { items } = await read(owner, { layout: 'full' });
    expect(items.map(({ html, text }) => ({ html, text }))).toEqual([
      { html: '', text: 'Only text' },
      { html: '<p>Stored HTML</p>', text: '' },
    ]);
  });

  it('takes only newsletters: confirmations, forwarding codes and reply-to-confirm mails stay in the mailbox', async () => {
    const owner = await signUp(t);
    const db = t.database.db;
    await receiveTestNewsletter(db, owner.userId, { subject: 'Issue' });
    await receiveTestNewsletter(db, owner.userId, { subject: 'Confirm', kind: 'confirmation' });
    await receiveTestNewsletter(db, owner.userId, { subject: 'Code', kind: 'forwarding_code' });
    await receiveTestNewsletter(db, owner.userId, { subject: 'Reply', kind: 'reply_to_confirm' });
    expect(subjects(await read(owner))).toEqual(['Issue']);
  });
});

describe('which senders a block reads', () => {
  async function mailboxOfFour() {
    const owner = await signUp(t);
    const db = t.database.db;
    const ids: Record<string, string> = {};
    for (const [index, state] of (['included', 'muted', 'blocked', 'unsubscribed'] as const).entries()) {
      const { senderId } = await receiveTestNewsletter(db, owner.userId, {
        fromAddress: `${state}@letters.example`,
        subject: `From ${state}`,
        receivedAt: minutesAgo(10 - index),
      });
      await setSenderState(db, owner.userId, senderId, state);
      ids[state] = senderId;
    }
    return { owner, ids };
  }

  it('all senders: only those included in digests (not muted, blocked or unsubscribed)', async () => {
    const { owner } = await mailboxOfFour();
    expect(subjects(await read(owner))).toEqual(['From included']);
  });

  it('chosen senders: those chosen, unless muted or blocked', async () => {
    const { owner, ids } = await mailboxOfFour();
    const chosen = [ids.included, ids.muted, ids.blocked, ids.unsubscribed] as string[];
    expect(subjects(await read(owner, { senders: chosen }))).toEqual(['From unsubscribed', 'From included']);
    expect(subjects(await read(owner, { senders: [ids.unsubscribed as string] }))).toEqual([
      'From unsubscribed',
    ]);
  });

  it('another user’s sender chosen by id gives nothing of theirs', async () => {
    const { ids } = await mailboxOfFour();
    const stranger = await signUp(t);
    await receiveTestNewsletter(t.database.db, stranger.userId, { subject: 'Stranger’s own' });
    expect(subjects(await read(stranger, { senders: [ids.included as string] }))).toEqual([]);
  });
});

describe('an issue carries what its digest has not carried, received since its previous issue', () => {
  const THREE = [{ type: 'DATE' as const }, { type: 'HACKER_NEWS' as const }];

  it('leaves out what this digest carried; another digest of the same user still carries it', async () => {
    const owner = await signUp(t);
    const db = t.database.db;
    const { messageId } = await receiveTestNewsletter(db, owner.userId, { subject: 'Once' });
    const [first, second] = [
      await createDigest(t.app, owner, { sources: [...THREE, { type: 'NEWSLETTERS' }] }),
      await createDigest(t.app, owner, { sources: [...THREE, { type: 'NEWSLETTERS' }] }),
    ];
    expect(subjects(await read(owner, {}, first.digestId))).toEqual(['Once']);
    await db.transaction((tx) =>
      recordCarriedNewsletters(tx, {
        digestId: first.digestId,
        buildId: null,
        messageIds: [messageId],
        at: new Date(),
      }),
    );
    expect(subjects(await read(owner, {}, first.digestId))).toEqual([]);
    expect(subjects(await read(owner, {}, second.digestId))).toEqual(['Once']);
    // The preview shows the latest, carried or not.
    expect(subjects(await read(owner))).toEqual(['Once']);
  });

  it('leaves out what arrived before the previous issue was started', async () => {
    const owner = await signUp(t);
    const db = t.database.db;
    await receiveTestNewsletter(db, owner.userId, { subject: 'Before', receivedAt: minutesAgo(60) });
    await receiveTestNewsletter(db, owner.userId, { subject: 'After', receivedAt: minutesAgo(5) });
    const digest = await createDigest(t.app, owner, { sources: [...THREE, { type: 'NEWSLETTERS' }] });
    expect(subjects(await read(owner, {}, digest.digestId))).toEqual(['After', 'Before']);
    await db.insert(issueRuns).values([
      { digestId: digest.digestId, slot: minutesAgo(30), status: 'built', createdAt: minutesAgo(30) },
      // A run that built nothing is no previous issue.
      { digestId: digest.digestId, slot: minutesAgo(2), status: 'empty', createdAt: minutesAgo(2) },
    ]);
    expect(subjects(await read(owner, {}, digest.digestId))).toEqual(['After']);
  });
});
