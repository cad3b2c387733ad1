import { type SourceInput, sourceSchema } from '@digest/contracts';
import { eq } from 'drizzle-orm';
import { decodeHTMLStrict } from 'entities';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveries, digestBuilds, issueRuns } from '#server/db/schema';
import { connectAccount } from '#server/modules/accounts/test-support';
import { deliver } from '#server/modules/deliveries/deliveries.usecases';
import { callerOf, createDigest } from '#server/modules/digests/test-support';
import { signUp, type TestUser } from '#server/modules/users/test-support';
import { htmlToText } from '#server/platform/sanitize-html';
import { createConnectors, fetchSourceContent } from '#server/sources/connectors';
import { parseFeed } from '#server/sources/rss/feed-parser';
import { closeSmtpServers, startSmtpServer, type TestSmtpServer } from '#server-test/smtp-test-server';
import { startTestApi, type TestApi } from '#server-test/test-api';
import { type FakeProviders, startFakeProviders } from '#test/fakes/fake-providers';
import { buildIssue } from './build-issue.usecases';

// docs/design.md §10 "Private by default": a digest reading a calendar, Stripe and X, built for real
// against the fake providers, mailed through the test SMTP server and read as a stranger.
let fakes: FakeProviders;
let smtp: TestSmtpServer;
let t: TestApi;
let owner: TestUser;
const tokenIds = { google: '', twitter: '', stripe: '' };

beforeAll(async () => {
  fakes = await startFakeProviders();
  smtp = await startSmtpServer();
  t = await startTestApi({
    fakes,
    smtp,
    appUrl: 'http://app.test',
    mailDomain: 'digest.test',
  });
  owner = await signUp(t);
  tokenIds.google = await connectAccount(t, owner, 'google');
  tokenIds.twitter = await connectAccount(t, owner, 'twitter');
  tokenIds.stripe = await connectAccount(t, owner, 'stripe');
});
afterAll(async () => {
  await t?.close();
  await fakes?.close();
  await closeSmtpServers();
});

const api = callerOf(() => t.app);

const privateSources = (): SourceInput[] => [
  { type: 'GOOGLE_CALENDAR', name: 'My meetings', selectedEvents: [{ tokenId: tokenIds.google }] },
  { type: 'STRIPE', stripeAccounts: [{ tokenId: tokenIds.stripe }] },
  { type: 'TWITTER_TIMELINE', tokenId: tokenIds.twitter },
  {
    type: 'TWITTER_LIST',
    tokenId: tokenIds.twitter,
    listId: '1600000000000000001',
    listName: 'Close friends',
  },
];
const publicSources = (): SourceInput[] => [
  { type: 'RSS', feedLink: `${fakes.origin}/feeds/rss2.xml`, sourceName: 'Field Notes' },
];

/** Text that only the private blocks' content holds: each event, tweet and Stripe account, as HTML shows it. */
async function secretsOf(sources: SourceInput[]) {
  const connectors = createConnectors(t.sources);
  const context = { userId: owner.userId, timezone: 'UTC', locale: 'en-US' };
  const secrets: string[] = [];
  for (const input of sources) {
    const content = (await fetchSourceContent(connectors, sourceSchema.parse(input), context)) as {
      days?: { events: { title: string }[] }[];
      tweets?: { url: string }[];
      accounts?: { username: string }[];
    };
    for (const day of content.days ?? []) secrets.push(...day.events.map((event) => event.title));
    secrets.push(...(content.tweets ?? []).map((tweet) => tweet.url));
    secrets.push(...(content.accounts ?? []).map((account) => account.username).filter(Boolean));
  }
  return secrets.map((secret) => secret.replace(/&/g, '&amp;').replace(/'/g, '&#x27;'));
}

async function builtIssue(visibility: 'public' | 'private') {
  const digest = await createDigest(t.app, owner, {
    name: 'Everything of mine',
    sources: [...publicSources(), ...privateSources()],
  });
  let token: string | null = null;
  if (visibility === 'public') {
    const answer = await api(owner, 'PUT', `/api/digests/${digest.digestId}/visibility`, { visibility });
    token = String(answer.json().shareUrl).split('/').pop() ?? null;
  }
  const [run] = await t.database.db
    .insert(issueRuns)
    .values({ digestId: digest.digestId, slot: new Date() })
    .returning();
  if (!run) throw new Error('no run');
  expect(await buildIssue(t.modules.issuesDeps, run.runId)).toMatchObject({ status: 'built' });
  const [build] = await t.database.db
    .select()
    .from(digestBuilds)
    .where(eq(digestBuilds.digestId, digest.digestId));
  if (!build) throw new Error('no build');
  return { digest, token, build };
}

async function ownerMail(digestId: string) {
  const [row] = await t.database.db.select().from(deliveries).where(eq(deliveries.digestId, digestId));
  if (!row) throw new Error('no delivery');
  await deliver(t.modules.deliveryDeps, row.deliveryId);
  const mail = smtp.received.find((received) => received.parsed.messageId === row.messageId);
  if (!mail) throw new Error('not received');
  return mail.parsed;
}

describe('blocks that read a connected account are never in public HTML', () => {
  it('the owner gets them whole; the public page shows their titles and "Private" in their place', async () => {
    const secrets = await secretsOf(privateSources());
    expect(secrets.length).toBeGreaterThan(3);
    const { digest, token, build } = await builtIssue('public');

    for (const secret of secrets) expect(build.html).toContain(secret);
    const mail = await ownerMail(digest.digestId);
    for (const secret of secrets) expect(mail.html).toContain(secret);

    const page = await api(null, 'GET', `/api/digests/share/${token}`);
    expect(page.statusCode).toBe(200);
    for (const secret of secrets) expect(page.body).not.toContain(secret);
    expect(page.body).toContain('The night shift that keeps the trams running');
    for (const title of ['My meetings', 'Stripe', 'Twitter timeline', 'Twitter list']) {
      expect(page.body).toMatch(new RegExp(`${title}</h2>[\\s\\S]{0,400}?>Private<`));
    }

    // The digest's feeds carry the same public copy, never the private blocks.
    for (const file of ['feed.atom', 'feed.json']) {
      const feed = await api(null, 'GET', `/api/digests/share/${token}/${file}`);
      expect(feed.statusCode, file).toBe(200);
      const [issue] = parseFeed(feed.body, { url: 'http://app.test/' }).items;
      const text = htmlToText(issue?.content ?? '');
      expect(text, file).toContain('The night shift that keeps the trams running');
      expect(text, file).toMatch(/My meetings\s+Private/);
      for (const secret of secrets) expect(text, file).not.toContain(decodeHTMLStrict(secret));
    }
  });

  it('a public digest’s mail links its public page by token; a private one’s links no public page at all', async () => {
    const published = await builtIssue('public');
    const publicMail = await ownerMail(published.digest.digestId);
    expect(publicMail.html).toContain(`http://app.test/digests/share/${published.token}/1`);
    expect(publicMail.html).toContain('View in browser');
    expect(publicMail.html).not.toContain(`/digests/share/${published.digest.digestId}`);

    const kept = await builtIssue('private');
    const privateMail = await ownerMail(kept.digest.digestId);
    expect(privateMail.html).not.toContain('/digests/share/');
    expect(privateMail.text).not.toContain('/digests/share/');
    expect(privateMail.html).not.toContain('View in browser');
    // The owner's footer still links the digest in the app.
    expect(privateMail.html).toContain(`http://app.test/digests/${kept.digest.digestId}`);
  });

  it('a private digest keeps a public copy too, shown once the owner turns the link on', async () => {
    const secrets = await secretsOf(privateSources());
    const { digest, build } = await builtIssue('private');
    expect(build.publicHtml).toBeTruthy();
    for (const secret of secrets) expect(build.publicHtml).not.toContain(secret);
    const answer = await api(owner, 'PUT', `/api/digests/${digest.digestId}/visibility`, {
      visibility: 'public',
    });
    const page = await api(null, 'GET', `/api/digests/share/${answer.json().shareUrl.split('/').pop()}/1`);
    expect(page.statusCode).toBe(200);
    for (const secret of secrets) expect(page.body).not.toContain(secret);
  });
});
