import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { type RenderedEmail, renderEmail } from '../render';
import { blockHtmlKeyParts } from './block-cache';
import { DigestEmail } from './DigestEmail';
import {
  markRecipientFooter,
  personalizeDigest,
  RECIPIENT_FOOTER_MARKER,
  recipientFooter,
  withoutRecipientFooter,
} from './footer';
import { type IssueBlock, publicCopyOf } from './items';
import {
  DIGEST_HTML_MAX_BYTES,
  type DigestEmailInput,
  type RenderedDigest,
  renderDigestEmail,
} from './render-digest';
import { PRIVATE_BLOCK_TEXT } from './SourceBlock';
import {
  blockOf,
  calendarContent,
  imagesIn,
  newsletterItem,
  rssContent,
  tweet,
  weatherContent,
} from './test-blocks';
import type { BlockContext, DigestBlockInput } from './types';

const publicUrl = 'https://digest.example/digests/share/d1/12';

const input = (blocks: DigestBlockInput[], overrides: Partial<DigestEmailInput> = {}): DigestEmailInput => ({
  digestName: "Ann's Digest",
  issueNumber: 12,
  date: new Date('2026-11-22T12:00:00Z'),
  timeZone: 'America/New_York',
  locale: 'en-US',
  blocks,
  publicUrl,
  ...overrides,
});

const smallBlocks = (): DigestBlockInput[] => [
  blockOf('WEATHER', weatherContent(5)),
  blockOf('RSS', rssContent(3)),
  blockOf('TWITTER_TIMELINE', { tweets: [tweet(1)] }),
  blockOf('GOOGLE_CALENDAR', calendarContent()),
];

/** 300 posts of about 2 KB each: far over the limit. */
const hugeBlocks = (): DigestBlockInput[] => [
  blockOf('WEATHER', weatherContent(5)),
  blockOf('RSS', rssContent(300, { content: `<p>${'Long content. '.repeat(150)}</p>` }), {
    postBody: 'full',
    layout: 1,
  }),
  blockOf('HACKER_NEWS', { items: [] }, { name: 'Last block' }),
];

const bytes = (html: string) => new TextEncoder().encode(html).length;

describe('renderDigestEmail', () => {
  it('has the digest name as <title> and the dark-mode meta', async () => {
    const { html, title } = await renderDigestEmail(input(smallBlocks()));
    expect(title).toBe("Ann's Digest");
    expect(html).toContain('<title>Ann&#x27;s Digest</title>');
    expect(html).toContain('<meta name="color-scheme" content="light dark"/>');
    expect(html).toMatch(/@media \(prefers-color-scheme: dark\)/);
    expect(html).toMatch(/@media only screen and \(max-width: 600px\)/);
  });

  it("shows the date in the owner's zone: 02:00 UTC on the 22nd is Saturday the 21st in New York", async () => {
    const { text } = await renderDigestEmail(
      input(smallBlocks(), { date: new Date('2026-11-22T02:00:00Z') }),
    );
    expect(text).toContain('Saturday, November 21, 2026');
    const tokyo = await renderDigestEmail(
      input(smallBlocks(), { date: new Date('2026-11-22T02:00:00Z'), timeZone: 'Asia/Tokyo' }),
    );
    expect(tokyo.text).toContain('Sunday, November 22, 2026');
  });

  it("formats the date in the owner's locale", async () => {
    const { text } = await renderDigestEmail(
      input(smallBlocks(), { locale: 'de-DE', timeZone: 'Europe/Berlin' }),
    );
    expect(text).toContain('Sonntag, 22. November 2026');
  });

  it('shows the issue number and a "View in browser" link to the public page', async () => {
    const { html, text } = await renderDigestEmail(input(smallBlocks()));
    expect(text).toContain('Issue #12');
    expect(html).toMatch(
      /<a href="https:\/\/digest\.example\/digests\/share\/d1\/12"[^>]*>View in browser<\/a>/,
    );
  });

  it('renders the blocks in order, an error block with its message and the others still', async () => {
    const blocks = [
      blockOf('RSS', rssContent(1)),
      { ...blockOf('HACKER_NEWS', undefined), error: 'Hacker News did not answer' },
      blockOf('TWITTER_TIMELINE', { tweets: [tweet(7)] }),
    ];
    const { text } = await renderDigestEmail(input(blocks));
    expect(text).toContain('Hacker News could not be loaded: Hacker News did not answer');
    const order = ['Post 1', 'Hacker News could not be loaded', 'Tweet number 7'].map((part) =>
      text.indexOf(part),
    );
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('escapes a hostile digest name and block name', async () => {
    const hostile = '"><img src=x onerror=alert(1)><script>alert(1)</script>';
    const { html } = await renderDigestEmail(
      input([blockOf('RSS', rssContent(1), { name: hostile })], { digestName: hostile }),
    );
    expect(html).not.toContain('<script>alert');
    expect(html).not.toMatch(/<img[^>]*onerror/);
  });

  it('the text part has the item titles and their links', async () => {
    const { text } = await renderDigestEmail(input(smallBlocks()));
    expect(text).toContain('Post 2 https://blog.example.org/posts/2');
    expect(text).toContain('https://x.com/ann/status/t1');
    expect(text).toContain('Dinner with Bob');
  });

  it('does not cut a small issue', async () => {
    const { html, text, truncated } = await renderDigestEmail(input(smallBlocks()));
    expect(truncated).toBe(false);
    expect(html).not.toContain('Continue reading');
    expect(text).toContain('Post 3');
  });

  it('cuts a huge issue under the limit with a "Continue reading" link to the public page', async () => {
    const { html, text, truncated } = await renderDigestEmail(input(hugeBlocks()));
    expect(truncated).toBe(true);
    expect(bytes(html)).toBeLessThanOrEqual(DIGEST_HTML_MAX_BYTES - 2_000);
    // Cut at the end: the first posts are there, the last ones are not, the last block keeps its heading.
    expect(text).toContain('Post 1 ');
    expect(text).not.toContain('Post 300');
    expect(html).toContain('Last block</h2>');
    expect(html).toMatch(
      /<a href="https:\/\/digest\.example\/digests\/share\/d1\/12"[^>]*>[\s\S]*?Continue reading/,
    );
    expect(text).toContain(`Continue reading ${publicUrl}`);
  });

  it('keeps as many items as fit: two more would pass the limit', async () => {
    const { text, blocks } = await renderDigestEmail(input(hugeBlocks()));
    const kept = [...text.matchAll(/Post (\d+) https/g)].length;
    expect(kept).toBeGreaterThan(10);
    // It answers the blocks as the mail shows them: what an issue carried is read from these.
    const shown = blocks[1] as ReturnType<typeof blockOf<'RSS'>> & { cut?: boolean };
    expect(shown.content?.items).toHaveLength(kept);
    expect(shown.cut).toBe(true);
    // Two, not one: without the "Continue reading" section one more post may fit; a post is larger than it.
    const twoMore = hugeBlocks();
    const rss = twoMore[1] as ReturnType<typeof blockOf<'RSS'>>;
    rss.content = { ...(rss.content ?? rssContent(0)), items: (rss.content?.items ?? []).slice(0, kept + 2) };
    const bigger = await renderDigestEmail(input(twoMore));
    expect(bigger.truncated).toBe(true);
  });

  it('stays under the limit with the largest recipient footer in place', async () => {
    const rendered = await renderDigestEmail(input(hugeBlocks()));
    const footer = recipientFooter(
      {
        kind: 'subscriber',
        ownerName: '&<>"'.repeat(100),
        unsubscribeUrl: `https://digest.example/unsubscribe?token=${'a'.repeat(400)}`,
      },
      {
        // The longest URLs the configuration accepts (TERMS_URL, PRIVACY_URL: 300 characters), each character escaped.
        termsUrl: `https://legal.example/${'&'.repeat(278)}`,
        privacyUrl: `https://legal.example/${'&'.repeat(278)}`,
      },
    );
    expect(bytes(personalizeDigest(rendered, footer).html)).toBeLessThanOrEqual(DIGEST_HTML_MAX_BYTES);
  });

  it('gives every image a width of at most 600 and max-width:100%', async () => {
    const content = rssContent(4, {
      content:
        '<p><img src="https://blog.example.org/a.png" alt="" width="2000" height="1000"><img src="https://blog.example.org/b.png" alt=""></p>',
    });
    const { html } = await renderDigestEmail(
      input([blockOf('RSS', content, { postBody: 'full' }), ...smallBlocks()]),
    );
    const images = imagesIn(html);
    expect(images.length).toBeGreaterThan(8);
    for (const image of images) {
      const width = /width="(\d+)"/.exec(image)?.[1];
      if (width) expect(Number(width)).toBeLessThanOrEqual(600);
      expect(image).toMatch(/max-width:100%/);
    }
  });

  it("links an item's picture without an unnamed link: hidden from screen readers and the tab order", async () => {
    const { html } = await renderDigestEmail(input([blockOf('RSS', rssContent(2))]));
    const pictureLinks = html.match(/<a [^>]*>\s*<img[^>]*>\s*<\/a>/g) ?? [];
    expect(pictureLinks).toHaveLength(2);
    for (const link of pictureLinks) {
      expect(link).toMatch(/aria-hidden="true"/);
      expect(link).toMatch(/tabindex="-1"/);
    }
  });

  it('refuses a public URL that is not http(s)', async () => {
    await expect(
      renderDigestEmail(input(smallBlocks(), { publicUrl: 'javascript:alert(1)' })),
    ).rejects.toThrow(TypeError);
  });
});

const legal = { termsUrl: 'https://digest.example/terms', privacyUrl: 'https://legal.example/privacy' };

describe('a catch-up issue (issue 17 "While you were away")', () => {
  it('is marked in its heading, text and preview line, with the paused time in the owner’s zone', async () => {
    const catchUp = { since: new Date('2026-11-01T12:00:00Z'), until: new Date('2026-11-22T12:00:00Z') };
    const rendered = await renderDigestEmail(input([blockOf('RSS', rssContent(2))], { catchUp }));
    expect(rendered.html).toMatch(/<h2[^>]*>While you were away<\/h2>/);
    expect(rendered.html).toContain('What came while this Digest was paused, Nov 1 – Nov 22.');
    expect(rendered.text.toLowerCase()).toContain('while you were away');
    expect(rendered.html).toContain('While you were away · Issue #12');
    const usual = await renderDigestEmail(input([blockOf('RSS', rssContent(2))]));
    expect(usual.html).not.toContain('While you were away');
  });
});

describe('recipient footer', () => {
  it('the rendered issue carries one marker in html and text, where the footer goes', async () => {
    const { html, text } = await renderDigestEmail(input(smallBlocks()));
    expect(html.split(RECIPIENT_FOOTER_MARKER.html)).toHaveLength(2);
    expect(text.split(RECIPIENT_FOOTER_MARKER.text)).toHaveLength(2);
    expect(html.indexOf(RECIPIENT_FOOTER_MARKER.html)).toBeGreaterThan(html.indexOf('Dinner with Bob'));
  });

  it("personalizeDigest puts a subscriber's footer where the marker was and leaves no marker", async () => {
    const rendered = await renderDigestEmail(input(smallBlocks()));
    const footer = recipientFooter(
      {
        kind: 'subscriber',
        ownerName: 'Ann <b>&</b>',
        unsubscribeUrl: 'https://digest.example/unsubscribe?s=1&d=2',
      },
      legal,
    );
    const { html, text } = personalizeDigest(rendered, footer);
    expect(html).not.toContain(RECIPIENT_FOOTER_MARKER.html);
    expect(text).not.toContain(RECIPIENT_FOOTER_MARKER.text);
    expect(html).toContain(
      'You receive this because you subscribed to Ann &lt;b&gt;&amp;&lt;/b&gt;&#x27;s Digest.',
    );
    expect(html).toMatch(
      /<a href="https:\/\/digest\.example\/unsubscribe\?s=1&amp;d=2"[^>]*>Unsubscribe<\/a>/,
    );
    expect(html.indexOf('Unsubscribe')).toBeGreaterThan(html.indexOf('Dinner with Bob'));
    expect(text).toContain("You receive this because you subscribed to Ann <b>&</b>'s Digest.");
    expect(text).toContain('Unsubscribe: https://digest.example/unsubscribe?s=1&d=2');
  });

  it("the owner's footer links to the digest in the app", async () => {
    const rendered = await renderDigestEmail(input(smallBlocks()));
    const { html, text } = personalizeDigest(
      rendered,
      recipientFooter({ kind: 'owner', appDigestUrl: 'https://digest.example/digests/d1' }, legal),
    );
    expect(html).toMatch(
      /This is your Digest\. <a href="https:\/\/digest\.example\/digests\/d1"[^>]*>Edit it in Digest<\/a>/,
    );
    expect(text).toContain('This is your Digest. Edit it in Digest: https://digest.example/digests/d1');
  });

  it('every footer ends with the Terms of Service and the Privacy Policy, in html and text', async () => {
    const rendered = await renderDigestEmail(input(smallBlocks()));
    for (const recipient of [
      { kind: 'owner', appDigestUrl: 'https://digest.example/digests/d1' },
      { kind: 'subscriber', ownerName: 'Ann', unsubscribeUrl: 'https://digest.example/unsubscribe/t' },
    ] as const) {
      const { html, text } = personalizeDigest(rendered, recipientFooter(recipient, legal));
      expect(html).toMatch(/<a href="https:\/\/digest\.example\/terms"[^>]*>Terms of Service<\/a>/);
      expect(html).toMatch(/<a href="https:\/\/legal\.example\/privacy"[^>]*>Privacy Policy<\/a>/);
      expect(text).toContain(
        'Terms of Service: https://digest.example/terms\nPrivacy Policy: https://legal.example/privacy',
      );
    }
  });

  it('only the last marker is replaced: a source quoting the marker cannot move the footer', async () => {
    const quoting = blockOf('RSS', rssContent(1, { title: RECIPIENT_FOOTER_MARKER.text }));
    const rendered = await renderDigestEmail(input([quoting]));
    const { text } = personalizeDigest(rendered, { html: '<p>F</p>', text: 'FOOTER' });
    expect(text.split('FOOTER')).toHaveLength(2);
    expect(text.trim().endsWith('FOOTER')).toBe(true);
  });

  it('withoutRecipientFooter removes the markers for the public page', async () => {
    const { html, text } = withoutRecipientFooter(await renderDigestEmail(input(smallBlocks())));
    expect(html).not.toContain(RECIPIENT_FOOTER_MARKER.html);
    expect(text).not.toContain(RECIPIENT_FOOTER_MARKER.text);
    expect(text).toContain('Dinner with Bob');
  });
});

describe("an issue's public copy (docs/design.md §10 private by default)", () => {
  const stripe = {
    periodStart: '2026-11-21T12:00:00Z',
    periodEnd: '2026-11-22T12:00:00Z',
    accounts: [
      {
        tokenId: 's1',
        username: 'Ann Shop',
        profilePicture: '',
        currency: 'usd',
        revenue: 172_060,
        revenueByCurrency: [{ currency: 'usd', amount: 172_060 }],
        payments: 12,
        customers: 7,
        message: '',
      },
    ],
  };
  const blocks = (): DigestBlockInput[] => [
    blockOf('RSS', rssContent(1, { title: 'Public news' })),
    blockOf('GOOGLE_CALENDAR', calendarContent(), { name: 'My day', showHeading: false }),
    blockOf('STRIPE', stripe),
    blockOf('TWITTER_TIMELINE', { tweets: [tweet(1, { text: 'Home timeline secret' })] }),
    blockOf('TWITTER_LIST', { tweets: [tweet(2, { text: 'List secret' })] }),
    blockOf('TWITTER_TWEETS', { tweets: [tweet(3, { text: 'Protected secret' })] }),
    blockOf('TWITTER_SEARCH', { tweets: [tweet(4, { text: 'Search result' })] }),
  ];

  it('shows the title and "Private" in place of every block that reads private data, and the others whole', async () => {
    const full = await renderDigestEmail(input(blocks()));
    for (const secret of ['Dinner with Bob', '1,720.60', 'Home timeline secret', 'List secret']) {
      expect(full.html).toContain(secret);
    }
    const copy = await renderDigestEmail(input(publicCopyOf(blocks()), { publicUrl: undefined }));
    for (const secret of ['Dinner with Bob', 'Conference', '1,720.60', 'Ann Shop', 'Home timeline secret']) {
      expect(copy.html).not.toContain(secret);
    }
    expect(copy.html).not.toContain('List secret');
    expect(copy.html).not.toContain('Protected secret');
    expect(copy.html).toContain('Public news');
    expect(copy.html).toContain('Search result');
    // Titles stay (the calendar's even with its heading turned off), each followed by the word.
    for (const title of ['My day', 'Stripe', 'Twitter timeline', 'Twitter list', 'Twitter tweets']) {
      expect(copy.html).toMatch(new RegExp(`${title}</h2>[\\s\\S]*?${PRIVATE_BLOCK_TEXT}`));
    }
    expect(copy.html).not.toContain('View in browser');
  });

  it('shows a newsletters block as its title and "N newsletters": no subject, sender, excerpt or content', async () => {
    const letters = [
      newsletterItem(1, {
        subject: 'Secret subject',
        senderName: 'Secret sender',
        html: '<p>Secret body</p>',
      }),
      newsletterItem(2, { fromAddress: 'hidden@letters.example', excerpt: 'Secret excerpt' }),
    ];
    const block = blockOf('NEWSLETTERS', { items: letters }, { name: 'My letters', layout: 'full' });
    const full = await renderDigestEmail(input([blockOf('RSS', rssContent(1)), block]));
    expect(full.html).toContain('Secret body');
    const copy = await renderDigestEmail(input(publicCopyOf([block]), { publicUrl: undefined }));
    for (const secret of [
      'Secret subject',
      'Secret sender',
      'Secret body',
      'Secret excerpt',
      'hidden@',
      '/newsletters/',
    ]) {
      expect(copy.html).not.toContain(secret);
      expect(copy.text).not.toContain(secret);
    }
    expect(copy.html).toMatch(/My letters<\/h2>[\s\S]*?2 newsletters/);
    expect(copy.html).not.toContain(PRIVATE_BLOCK_TEXT);
  });

  it('a private digest\'s mail has no "View in browser" or "Continue reading" link', async () => {
    const { html, text } = await renderDigestEmail(input(hugeBlocks(), { publicUrl: undefined }));
    expect(html).not.toContain('View in browser');
    expect(html).not.toContain('Continue reading');
    expect(text).not.toContain('digests/share');
  });
});

describe('blocks rendered on their own (the block cache)', () => {
  /** The issue as one React tree, every block inside it: what a block rendered on its own must equal. */
  async function renderedAsOneTree(rendered: RenderedDigest, overrides: Partial<DigestEmailInput> = {}) {
    const element = createElement(DigestEmail, {
      ...input([], overrides),
      blocks: rendered.blocks,
      truncated: rendered.truncated,
      footer: RECIPIENT_FOOTER_MARKER.text,
    });
    const { html, text } = await renderEmail(element);
    return { html: markRecipientFooter(html), lines: linesOf(text) };
  }

  /** The text's lines in order: the blank lines between blocks are where the two renderings may differ. */
  const linesOf = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

  const asRendered = (rendered: RenderedDigest) => ({ html: rendered.html, lines: linesOf(rendered.text) });

  /** A cache that remembers by the key parts, and counts what it had to render. */
  function countingCache() {
    const remembered = new Map<string, RenderedEmail>();
    const cache = {
      renders: 0,
      rendered(block: IssueBlock, context: BlockContext, render: () => RenderedEmail) {
        const key = blockHtmlKeyParts(block, context);
        let value = remembered.get(key);
        if (value === undefined) {
          value = render();
          cache.renders += 1;
          remembered.set(key, value);
        }
        return value;
      },
    };
    return cache;
  }

  it('gives the same HTML, and the same lines of text, as rendering the blocks inside the issue, cut or not', async () => {
    const blocks = [
      ...smallBlocks(),
      { ...blockOf('RSS', rssContent(1)), error: 'The feed answered 500' } as DigestBlockInput,
      blockOf('NEWSLETTERS', { items: [newsletterItem(1)] }),
    ];
    for (const overrides of [{}, { locale: 'fr-FR', timeZone: 'Europe/Paris' }]) {
      const rendered = await renderDigestEmail(input(blocks, overrides), { blockCache: countingCache() });
      expect(asRendered(rendered)).toEqual(await renderedAsOneTree(rendered, overrides));
    }
    const publicCopy = await renderDigestEmail(input(publicCopyOf(blocks)), { blockCache: countingCache() });
    expect(publicCopy.html).toContain(PRIVATE_BLOCK_TEXT);
    expect(asRendered(publicCopy)).toEqual(await renderedAsOneTree(publicCopy));
    const cut = await renderDigestEmail(input(hugeBlocks()));
    expect(cut.truncated).toBe(true);
    expect(asRendered(cut)).toEqual(await renderedAsOneTree(cut));
  });

  it('renders an identical block once across issues, again for another locale, zone or content', async () => {
    const cache = countingCache();
    await renderDigestEmail(input(smallBlocks()), { blockCache: cache });
    expect(cache.renders).toBe(4);
    const again = await renderDigestEmail(input(smallBlocks(), { issueNumber: 13 }), { blockCache: cache });
    expect(cache.renders).toBe(4);
    expect(again.html).toContain('Issue #13');
    await renderDigestEmail(input(smallBlocks(), { timeZone: 'Asia/Tokyo' }), { blockCache: cache });
    expect(cache.renders).toBe(8);
    await renderDigestEmail(input([blockOf('RSS', rssContent(4))]), { blockCache: cache });
    expect(cache.renders).toBe(9);
  });
});
