import type { HackerNewsItem, ProductHuntItem, RedditPost } from '@digest/contracts/content';
import { describe, expect, it } from 'vitest';
import { renderEmail } from '../../render';
import { SourceBlock } from '../SourceBlock';
import { digestCss } from '../styles';
import {
  blockOf,
  calendarContent,
  columnRows,
  context,
  imagesIn,
  newsletterItem,
  rssContent,
  rssItem,
  tweet,
  weatherContent,
} from '../test-blocks';
import type { DigestBlockInput } from '../types';

const render = (block: DigestBlockInput) => renderEmail(<SourceBlock block={block} context={context} />);

const hnItem = (index: number, overrides: Partial<HackerNewsItem> = {}): HackerNewsItem => ({
  title: `Story ${index}`,
  url: `https://example.com/story/${index}`,
  storyUrl: `https://news.ycombinator.com/item?id=${index}`,
  createdAt: '2026-11-21T10:00:00Z',
  numberOfComments: 12,
  score: 340,
  ...overrides,
});

describe('RssBlock', () => {
  it('two columns put two items in each row', async () => {
    const { html } = await render(blockOf('RSS', rssContent(5), { layout: 2 }));
    expect(columnRows(html)).toEqual([2, 2, 2]);
    expect(html).toContain('Post 5');
  });

  it('one column puts no item in a table cell', async () => {
    const { html } = await render(blockOf('RSS', rssContent(3), { layout: 1 }));
    expect(columnRows(html)).toEqual([]);
    expect(html).toContain('Post 3');
  });

  it('images hide shows no picture, not even one inside the content', async () => {
    const content = rssContent(2, {
      content: '<p>Look <img src="https://blog.example.org/in.png" alt="x"> here</p>',
    });
    const { html } = await render(blockOf('RSS', content, { images: 'hide' }));
    expect(imagesIn(html)).toEqual([]);
    expect(html).toContain('Look');
  });

  it('images show shows the item picture and the favicon', async () => {
    const { html } = await render(blockOf('RSS', rssContent(1), { images: 'show', layout: 1 }));
    expect(html).toContain('src="https://blog.example.org/images/1.jpg"');
    expect(html).toContain('src="https://blog.example.org/favicon.ico"');
  });

  it('content full shows every paragraph, paragraph the first only, hide none', async () => {
    const full = await render(blockOf('RSS', rssContent(1), { postBody: 'full' }));
    expect(full.html).toContain('First paragraph 1.');
    expect(full.html).toContain('Second paragraph 1.');
    const paragraph = await render(blockOf('RSS', rssContent(1), { postBody: 'paragraph' }));
    expect(paragraph.html).toContain('First paragraph 1.');
    expect(paragraph.html).not.toContain('Second paragraph 1.');
    const hidden = await render(blockOf('RSS', rssContent(1), { postBody: 'hide' }));
    expect(hidden.html).not.toContain('First paragraph 1.');
    expect(hidden.html).toContain('Post 1');
  });

  it('caps a wide picture inside the content and drops its height', async () => {
    const content = rssContent(1, {
      content: '<p><img src="https://blog.example.org/wide.png" alt="wide" width="1200" height="800"></p>',
      image: '',
    });
    const { html } = await render(blockOf('RSS', content, { layout: 1, postBody: 'full' }));
    const image = imagesIn(html).find((tag) => tag.includes('wide.png'));
    expect(image).toContain('width="536"');
    expect(image).not.toContain('height=');
    expect(image).toContain('max-width:100%');
  });

  it('heads the block with the name, else the feed title', async () => {
    expect((await render(blockOf('RSS', rssContent(1), { name: 'My blogs' }))).html).toContain(
      'My blogs</h2>',
    );
    expect((await render(blockOf('RSS', rssContent(1)))).html).toContain('Compile Time</h2>');
  });

  it('escapes hostile titles and authors', async () => {
    const hostile = '"><img src=x onerror=alert(1)><script>alert(2)</script>';
    const content = {
      ...rssContent(0),
      items: [rssItem(1, { title: hostile, creator: hostile, image: '' })],
    };
    const { html } = await render(blockOf('RSS', content, { name: hostile }));
    expect(html).not.toContain('<script>');
    expect(html).not.toMatch(/<img[^>]*onerror/);
    expect(html).toContain('&lt;script&gt;');
  });

  it('never links to a javascript: address', async () => {
    const content = { ...rssContent(0), items: [rssItem(1, { link: 'javascript:alert(1)', image: '' })] };
    const { html } = await render(blockOf('RSS', content));
    expect(html).not.toContain('javascript:');
    expect(html).toContain('Post 1');
  });

  it('says so when the feed has no posts', async () => {
    const { text } = await render(blockOf('RSS', rssContent(0)));
    expect(text).toContain('No posts');
  });
});

describe('HackerNewsBlock', () => {
  it('shows points and comments as K/M counts and links story and discussion', async () => {
    const items = [
      hnItem(1, { score: 1500, numberOfComments: 2_500_000 }),
      hnItem(2, { score: 999, numberOfComments: 1 }),
    ];
    const { html, text } = await render(blockOf('HACKER_NEWS', { items }, { layout: 1 }));
    expect(text).toContain('1.5K points');
    expect(text).toContain('2.5M comments');
    expect(text).toContain('999 points');
    expect(text).toContain('1 comment');
    expect(html).toContain('href="https://example.com/story/1"');
    expect(html).toContain('href="https://news.ycombinator.com/item?id=1"');
  });

  it('two columns by default (docs/product.md §9)', async () => {
    const { html } = await render(blockOf('HACKER_NEWS', { items: [1, 2, 3, 4].map((i) => hnItem(i)) }));
    expect(columnRows(html)).toEqual([2, 2]);
  });
});

describe('WeatherBlock', () => {
  it('marks its days so they wrap three to a line on a phone (the digest CSS rule under 600 px)', async () => {
    const { html } = await render(blockOf('WEATHER', weatherContent(5)));
    expect(html).toMatch(/<table[^>]*class="dg-forecast"/);
    expect(digestCss).toMatch(
      /max-width: 600px\)[\s\S]*\.dg-forecast \.dg-tile \{ display: inline-block !important;/,
    );
  });

  it('shows °F when the source asks for Fahrenheit', async () => {
    const { text } = await render(blockOf('WEATHER', weatherContent(5), { temperatureType: 'F' }));
    expect(text).toContain('54°F / 36°F');
    expect(text).not.toContain('°C');
  });

  it('shows °C when the source asks for Celsius', async () => {
    const { text } = await render(blockOf('WEATHER', weatherContent(5), { temperatureType: 'C' }));
    expect(text).toContain('12°C / 2°C');
    expect(text).not.toContain('°F');
  });

  it('5 days shows each day; 1 day shows the parts of today with their temperature', async () => {
    const five = await render(blockOf('WEATHER', weatherContent(5), { forecastIntervalType: 5 }));
    expect(five.text).toContain('Thursday');
    expect(five.text).toContain('Next 5 days');
    const one = await render(
      blockOf('WEATHER', weatherContent(1), { forecastIntervalType: 1, temperatureType: 'C' }),
    );
    expect(one.text).toContain('Morning');
    expect(one.text).toContain('Night');
    expect(one.text).toContain('10°C');
    expect(one.text).toContain('Warsaw · Today');
  });
});

describe('DateBlock', () => {
  it("shows the connector's formatted date", async () => {
    const content = {
      date: '2026-11-21',
      formatted: 'Saturday, November 21, 2026',
      weekday: 'Saturday',
      timezone: 'America/New_York',
    };
    const { text } = await render(blockOf('DATE', content));
    expect(text).toContain("Today's Date");
    expect(text).toContain('Saturday, November 21, 2026');
  });
});

describe('RedditBlock', () => {
  const post = (index: number): RedditPost => ({
    id: `p${index}`,
    url: `https://www.reddit.com/r/typescript/comments/p${index}/`,
    ups: 12_345,
    numComments: 7,
    title: `Reddit post ${index}`,
    selfText: `<p>Self text ${index}</p><p>More ${index}</p>`,
    image: `https://i.redd.it/${index}.png`,
  });

  it('heads the block r/subreddit and shows upvotes as K', async () => {
    const { html, text } = await render(blockOf('REDDIT', { subreddit: 'typescript', posts: [post(1)] }));
    expect(html).toContain('r/typescript</h2>');
    expect(text).toContain('12.3K upvotes');
  });

  it('leaves out upvotes and comments when they are unknown (read from the feed), never showing them as 0', async () => {
    const unknown = { ...post(1), ups: null, numComments: null };
    const { text } = await render(blockOf('REDDIT', { subreddit: 'typescript', posts: [unknown] }));
    expect(text).toContain('Reddit post 1');
    // (The post's own link has "/comments/" in it.)
    expect(text).not.toMatch(/upvote| comments?\b/);
  });

  it('images hide and content hide', async () => {
    const { html } = await render(
      blockOf('REDDIT', { subreddit: 'typescript', posts: [post(1)] }, { images: 'hide', postBody: 'hide' }),
    );
    expect(imagesIn(html)).toEqual([]);
    expect(html).not.toContain('Self text 1');
  });

  it('two columns put two posts per row', async () => {
    const { html } = await render(
      blockOf('REDDIT', { subreddit: 'typescript', posts: [post(1), post(2), post(3)] }, { layout: 2 }),
    );
    expect(columnRows(html)).toEqual([2, 2]);
  });
});

describe('CalendarBlock', () => {
  it('12 hours shows AM/PM times', async () => {
    const { text } = await render(blockOf('GOOGLE_CALENDAR', calendarContent(), { eventTime: '12h' }));
    expect(text).toContain('7:30 PM – 9:00 PM');
    expect(text).toContain('All day');
  });

  it('24 hours shows 19:30, even for content read with 12 hours', async () => {
    const { text } = await render(blockOf('GOOGLE_CALENDAR', calendarContent(), { eventTime: '24h' }));
    expect(text).toContain('19:30 – 21:00');
    expect(text).not.toContain('PM');
  });

  it('shows a birthday as a birthday and time out of office as a line of its own, not as meetings', async () => {
    const { text } = await render(blockOf('GOOGLE_CALENDAR', calendarContent()));
    expect(text).toContain("Grace Chen's birthday");
    expect(text).toMatch(/Grace Chen's birthday[\s\S]*Birthday/);
    expect(text).toContain('Out of office: Day off (all day)');
    expect(text).not.toMatch(/Day off[\s\S]{0,40}\bAll day/);
  });

  it("says 'No events' when the period is empty and names an unreadable account", async () => {
    const content = {
      ...calendarContent(),
      days: [],
      errors: [{ email: 'bob@example.com', message: 'Reconnect your account' }],
    };
    const { text } = await render(blockOf('GOOGLE_CALENDAR', content));
    expect(text).toContain('No events');
    expect(text).toContain('bob@example.com could not be read: Reconnect your account');
  });
});

describe('TwitterBlock', () => {
  it('renders the four X/Twitter kinds with their tweets and K/M counts', async () => {
    for (const type of ['TWITTER_TWEETS', 'TWITTER_TIMELINE', 'TWITTER_SEARCH', 'TWITTER_LIST'] as const) {
      const { html, text } = await render(blockOf(type, { tweets: [tweet(1), tweet(2)] }));
      expect(text).toContain('Tweet number 2');
      expect(text).toContain('1.5K likes');
      expect(text).toContain('2.5M retweets');
      expect(html).toContain('href="https://x.com/ann/status/t1"');
    }
  });

  it('images hide shows neither avatars nor media', async () => {
    const { html } = await render(blockOf('TWITTER_TIMELINE', { tweets: [tweet(1)] }, { images: 'hide' }));
    expect(imagesIn(html)).toEqual([]);
  });

  it('two columns put two tweets per row; search shows its phrase', async () => {
    const { html, text } = await render(
      blockOf('TWITTER_SEARCH', { tweets: [tweet(1), tweet(2)] }, { layout: 2 }),
    );
    expect(columnRows(html)).toEqual([2]);
    expect(text).toContain('“typescript news”');
  });

  it("says 'No tweets' when there are none", async () => {
    const { text } = await render(blockOf('TWITTER_LIST', { tweets: [] }));
    expect(text).toContain('Friends');
    expect(text).toContain('No tweets');
  });
});

describe('YoutubeBlock', () => {
  const video = (index: number) => ({
    title: `Video ${index}`,
    date: '2026-11-20T15:00:00Z',
    link: `https://www.youtube.com/watch?v=v${index}`,
    cover: `https://i.ytimg.com/vi/v${index}/hqdefault.jpg`,
  });

  it('covers link to the watch page; two per row', async () => {
    const { html } = await render(
      blockOf('YOUTUBE', { channelId: 'UCabc', channelName: 'Fireship', videos: [video(1), video(2)] }),
    );
    expect(html).toContain('Fireship</h2>');
    expect(html).toMatch(/<a href="https:\/\/www\.youtube\.com\/watch\?v=v1"[^>]*><img[^>]*hqdefault/);
    expect(columnRows(html)).toEqual([2]);
  });

  it('images hide shows no cover', async () => {
    const { html, text } = await render(
      blockOf('YOUTUBE', { channelId: 'UCabc', channelName: 'F', videos: [video(1)] }, { images: 'hide' }),
    );
    expect(imagesIn(html)).toEqual([]);
    expect(text).toContain('Video 1');
  });
});

describe('ProductHuntBlock', () => {
  const launch = (index: number): ProductHuntItem => ({
    name: `Launch ${index}`,
    tagline: 'Ship faster',
    description: '<p>About it.</p><p>More about it.</p>',
    thumbnail: `https://ph-files.imgix.net/${index}.png`,
    votesCount: 1234,
    commentsCount: 56,
    url: `https://www.producthunt.com/posts/launch-${index}`,
  });

  it('shows name, tagline, the first paragraph and votes as K', async () => {
    const { text } = await render(blockOf('PRODUCT_HUNT', { items: [launch(1)] }, { postBody: 'paragraph' }));
    expect(text).toContain('Launch 1');
    expect(text).toContain('Ship faster');
    expect(text).toContain('About it.');
    expect(text).not.toContain('More about it.');
    expect(text).toContain('1.2K votes');
  });

  it('images hide shows no thumbnail', async () => {
    const { html } = await render(blockOf('PRODUCT_HUNT', { items: [launch(1)] }, { images: 'hide' }));
    expect(imagesIn(html)).toEqual([]);
  });

  it('leaves out votes and comments when they are unknown, never showing them as 0', async () => {
    const unknown = { ...launch(1), votesCount: null, commentsCount: null };
    const { text } = await render(blockOf('PRODUCT_HUNT', { items: [unknown] }));
    expect(text).toContain('Ship faster');
    expect(text).not.toMatch(/vote|comment/);
  });
});

describe('StripeBlock', () => {
  const account = {
    tokenId: 's1',
    username: 'Acme',
    profilePicture: '',
    currency: 'usd',
    revenue: 123_456,
    revenueByCurrency: [{ currency: 'usd', amount: 123_456 }],
    payments: 1500,
    customers: 3,
    message: '',
  };

  it('shows revenue in the currency, payments as K and new customers', async () => {
    const content = {
      periodStart: '2026-11-21T07:00:00Z',
      periodEnd: '2026-11-22T07:00:00Z',
      accounts: [account],
    };
    const { text } = await render(blockOf('STRIPE', content));
    expect(text).toContain('$1,234.56');
    expect(text).toContain('1.5K');
    expect(text).toContain('New customers');
  });

  it('an unreadable account shows its message, the others their figures', async () => {
    const broken = {
      ...account,
      tokenId: 's2',
      username: 'Beta',
      revenue: null,
      payments: null,
      customers: null,
      message: 'Reconnect Stripe',
    };
    const content = { periodStart: '', periodEnd: '', accounts: [account, broken] };
    const { text } = await render(blockOf('STRIPE', content));
    expect(text).toContain('Beta could not be read: Reconnect Stripe');
    expect(text).toContain('$1,234.56');
  });
});

describe('NewslettersBlock', () => {
  it('summary: each newsletter’s subject, sender, date and excerpt, with a link to read it in Digest', async () => {
    const { html, text } = await render(
      blockOf('NEWSLETTERS', { items: [newsletterItem(1), newsletterItem(2)] }),
    );
    expect(html).toContain('Newsletters</h2>');
    for (const index of [1, 2]) {
      expect(html).toContain(`Letters Weekly #${index}`);
      expect(html).toContain(`This week, part ${index}: three things worth reading.`);
    }
    expect(html).toContain('Letters Weekly · Nov 21');
    expect(html).toContain('href="https://digest.example/newsletters/00000000-0000-4000-8000-000000000001"');
    expect(text).toContain('Read in Digest');
  });

  it('full: the whole issue under its sender and subject, its pictures capped to the card', async () => {
    const issue = newsletterItem(1, {
      html: '<h1>Inside story</h1><p>All of it.</p><img src="https://letters.example/hero.png" width="1200">',
    });
    const { html } = await render(blockOf('NEWSLETTERS', { items: [issue] }, { layout: 'full' }));
    expect(html).toContain('<h1>Inside story</h1><p>All of it.</p>');
    expect(html).toContain('Letters Weekly #1');
    expect(html).toContain('Letters Weekly · Nov 21');
    expect(html).not.toContain('width="1200"');
    expect(html).not.toContain('This week, part 1');
  });

  it('full: a text-only issue shows its text; one too long for a mail its excerpt and why, with the link', async () => {
    const textOnly = newsletterItem(1, { text: 'Plain words\nin two lines' });
    const tooLong = newsletterItem(2, { tooLong: true });
    const { html, text } = await render(
      blockOf('NEWSLETTERS', { items: [textOnly, tooLong] }, { layout: 'full' }),
    );
    expect(html).toContain('Plain words');
    expect(html).toContain('This week, part 2');
    expect(text).toContain('Too long for an e-mail: read it in Digest');
  });

  it('escapes a hostile subject and sender, and says so when no newsletter is waiting', async () => {
    const hostile = newsletterItem(1, { subject: '<script>alert(1)</script>', senderName: '<b>x</b>' });
    const { html } = await render(blockOf('NEWSLETTERS', { items: [hostile] }));
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
    const empty = await render(blockOf('NEWSLETTERS', { items: [] }));
    expect(empty.text).toContain('No new newsletters');
  });
});

describe('SourceBlock', () => {
  it('an error block says "{title} could not be loaded: {message}"', async () => {
    const block = { ...blockOf('HACKER_NEWS', undefined), error: 'The provider did not answer' };
    const { text } = await render(block);
    expect(text).toContain('Hacker News could not be loaded: The provider did not answer');
  });

  it('hides the heading when showHeading is off', async () => {
    const { html } = await render(blockOf('HACKER_NEWS', { items: [hnItem(1)] }, { showHeading: false }));
    expect(html).not.toContain('<h2');
    expect(html).toContain('Story 1');
  });

  it('a block cut to nothing shows its heading only', async () => {
    const block = blockOf('RSS', undefined);
    const { html, text } = await renderEmail(<SourceBlock block={block} context={context} cut />);
    expect(html).toContain('RSS</h2>');
    expect(text).not.toContain('Nothing to show');
  });
});
