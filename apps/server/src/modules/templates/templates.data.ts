import { type SourceInput, sourceSchema, type Template, type TemplateCategory } from '@digest/contracts';

/**
 * Starting points for the builder (docs/product.md §2 template categories): named lists of configured sources,
 * written as a user would send them and parsed through the contracts when this module loads (defaults
 * filled in; a template that breaks a rule stops the server from starting and fails the tests).
 *
 * Only sources that need no connected account: a template cannot carry someone's calendar, Twitter or
 * Stripe token. Every feed, subreddit and channel below is a real, public one.
 */
interface TemplateInput {
  templateId: string;
  name: string;
  description: string;
  sources: SourceInput[];
}

const rss = (sourceName: string, feedLink: string, extra: Partial<SourceInput> = {}): SourceInput =>
  ({ type: 'RSS', sourceName, feedLink, ...extra }) as SourceInput;
const reddit = (sourceName: string, extra: Partial<SourceInput> = {}): SourceInput =>
  ({ type: 'REDDIT', sourceName, ...extra }) as SourceInput;
const youtube = (channelId: string, channelName: string): SourceInput => ({
  type: 'YOUTUBE',
  channelId,
  channelName,
  sourceName: channelName,
});
const date: SourceInput = { type: 'DATE' };
const hackerNews: SourceInput = { type: 'HACKER_NEWS' };
const productHunt: SourceInput = { type: 'PRODUCT_HUNT' };
const weather = (
  locationName: string,
  latitude: number,
  longitude: number,
  celsius = false,
): SourceInput => ({
  type: 'WEATHER',
  locationName,
  latitude,
  longitude,
  temperatureType: celsius ? 'C' : 'F',
});

const feeds = {
  bbcWorld: rss('BBC News – World', 'https://feeds.bbci.co.uk/news/world/rss.xml'),
  bbcTop: rss('BBC News', 'https://feeds.bbci.co.uk/news/rss.xml'),
  nytHome: rss('The New York Times', 'https://rss.nytimes.com/services/xml/rss/nyt/HomePage.xml'),
  nytBusiness: rss('NYT Business', 'https://rss.nytimes.com/services/xml/rss/nyt/Business.xml'),
  nytTech: rss('NYT Technology', 'https://rss.nytimes.com/services/xml/rss/nyt/Technology.xml'),
  guardianWorld: rss('The Guardian – World', 'https://www.theguardian.com/world/rss'),
  npr: rss('NPR News', 'https://feeds.npr.org/1001/rss.xml'),
  aljazeera: rss('Al Jazeera', 'https://www.aljazeera.com/xml/rss/all.xml'),
  verge: rss('The Verge', 'https://www.theverge.com/rss/index.xml'),
  ars: rss('Ars Technica', 'https://feeds.arstechnica.com/arstechnica/index'),
  techcrunch: rss('TechCrunch', 'https://techcrunch.com/feed/'),
  wired: rss('Wired', 'https://www.wired.com/feed/rss'),
  githubBlog: rss('The GitHub Blog', 'https://github.blog/feed/'),
  simonWillison: rss("Simon Willison's Weblog", 'https://simonwillison.net/atom/everything/'),
  juliaEvans: rss('Julia Evans', 'https://jvns.ca/atom.xml'),
  marketWatch: rss('MarketWatch – Top Stories', 'https://feeds.content.dowjones.io/public/rss/mw_topstories'),
  cnbc: rss(
    'CNBC – Top News',
    'https://search.cnbc.com/rs/search/combinedcms/view.xml?partnerId=wrss01&id=100003114',
  ),
  economist: rss(
    'The Economist – Finance & economics',
    'https://www.economist.com/finance-and-economics/rss.xml',
  ),
  kottke: rss('kottke.org', 'https://feeds.kottke.org/main', { postBody: 'full' }),
  daringFireball: rss('Daring Fireball', 'https://daringfireball.net/feeds/main', { postBody: 'full' }),
  sethGodin: rss("Seth's Blog", 'https://seths.blog/feed/', {
    postBody: 'full',
    numberOfPosts: 3,
    layout: 1,
  }),
  quanta: rss('Quanta Magazine', 'https://www.quantamagazine.org/feed/'),
  atlasObscura: rss('Atlas Obscura', 'https://www.atlasobscura.com/feeds/latest'),
  atlantic: rss('The Atlantic', 'https://www.theatlantic.com/feed/all/'),
};

const channels = {
  veritasium: youtube('UCHnyfMqiRRG1u-2MsSQLbXA', 'Veritasium'),
  kurzgesagt: youtube('UCsXVk37bltHxD1rDPwtNM8Q', 'Kurzgesagt – In a Nutshell'),
  mkbhd: youtube('UCBJycsmduvYEL83R_U4JriQ', 'Marques Brownlee'),
  fireship: youtube('UCsBjURrPoezykLs9EqgamOA', 'Fireship'),
  threeBlueOneBrown: youtube('UCYO_jab_esuFRV4b17AJtAw', '3Blue1Brown'),
  cnbc: youtube('UCvJJ_dzjViJCoLf5uKUTwoA', 'CNBC'),
};

const TEMPLATE_INPUTS: Record<TemplateCategory, TemplateInput[]> = {
  popular: [
    {
      templateId: 'popular-morning-briefing',
      name: 'Morning briefing',
      description: "Today's date, the weather, world headlines and what the internet is talking about.",
      sources: [
        date,
        weather('New York, NY, United States', 40.7128, -74.006),
        feeds.bbcWorld,
        reddit('worldnews'),
        hackerNews,
      ],
    },
    {
      templateId: 'popular-internet-favourites',
      name: 'Best of the internet',
      description: "Reddit's front page, today's top products and the videos everyone watches.",
      sources: [
        reddit('popular'),
        reddit('todayilearned'),
        productHunt,
        channels.veritasium,
        channels.kurzgesagt,
      ],
    },
  ],
  everyday: [
    {
      templateId: 'everyday-start-the-day',
      name: 'Start the day',
      description: 'The date, a five-day forecast, the news in brief and a life tip.',
      sources: [
        date,
        weather('London, England, United Kingdom', 51.5072, -0.1276, true),
        feeds.bbcTop,
        reddit('LifeProTips', { numberOfPosts: 3, images: 'hide' }),
      ],
    },
    {
      templateId: 'everyday-curious-mind',
      name: 'Curious mind',
      description: 'Science, oddities and explanations: something new to learn every day.',
      sources: [date, feeds.quanta, feeds.atlasObscura, reddit('science'), channels.kurzgesagt],
    },
  ],
  socials: [
    {
      templateId: 'socials-reddit-roundup',
      name: 'Reddit roundup',
      description: 'The most upvoted posts of the communities people talk about most.',
      sources: [
        reddit('popular'),
        reddit('AskReddit', { images: 'hide' }),
        reddit('pics'),
        reddit('dataisbeautiful'),
      ],
    },
    {
      templateId: 'socials-creators',
      name: 'Creators to follow',
      description: 'New videos from popular creators and the day’s launches on Product Hunt.',
      sources: [channels.mkbhd, channels.veritasium, channels.threeBlueOneBrown, productHunt],
    },
  ],
  finance: [
    {
      templateId: 'finance-markets',
      name: 'Markets today',
      description: 'Market headlines, business news and what investors are discussing.',
      sources: [
        date,
        feeds.marketWatch,
        feeds.cnbc,
        feeds.nytBusiness,
        reddit('investing'),
        reddit('stocks'),
      ],
    },
    {
      templateId: 'finance-money-matters',
      name: 'Money matters',
      description: 'Personal finance advice, economics explained and business video.',
      sources: [
        reddit('personalfinance', { postBody: 'full' }),
        feeds.economist,
        reddit('Economics'),
        channels.cnbc,
      ],
    },
  ],
  news: [
    {
      templateId: 'news-world',
      name: 'World news',
      description: 'Headlines from around the world, from several newsrooms.',
      sources: [
        date,
        feeds.bbcWorld,
        feeds.guardianWorld,
        feeds.aljazeera,
        feeds.nytHome,
        reddit('worldnews'),
      ],
    },
    {
      templateId: 'news-us',
      name: 'US news',
      description: 'The day’s top stories in the United States.',
      sources: [date, feeds.npr, feeds.nytHome, feeds.atlantic, reddit('news')],
    },
  ],
  'hand-crafted': [
    {
      templateId: 'hand-crafted-independent-voices',
      name: 'Independent voices',
      description: 'Long-running personal blogs worth reading in full.',
      sources: [feeds.kottke, feeds.daringFireball, feeds.sethGodin, feeds.juliaEvans],
    },
    {
      templateId: 'hand-crafted-slow-reads',
      name: 'Slow reads',
      description: 'Essays, science writing and the world’s hidden wonders, for the weekend.',
      sources: [feeds.quanta, feeds.atlasObscura, feeds.atlantic, channels.threeBlueOneBrown],
    },
  ],
  tech: [
    {
      templateId: 'tech-industry',
      name: 'Tech industry',
      description: 'Hacker News, launches and the technology press.',
      sources: [hackerNews, productHunt, feeds.verge, feeds.techcrunch, feeds.ars],
    },
    {
      templateId: 'tech-developers',
      name: 'For developers',
      description: 'What programmers read: Hacker News, r/programming, engineering blogs and short videos.',
      sources: [
        { type: 'HACKER_NEWS', showHN: true, name: 'Show HN' },
        reddit('programming'),
        feeds.githubBlog,
        feeds.simonWillison,
        channels.fireship,
      ],
    },
  ],
};

function parseTemplate(input: TemplateInput): Template {
  return { ...input, sources: input.sources.map((source) => sourceSchema.parse(source)), note: null };
}

/** Templates by category, validated by the contracts. */
export const TEMPLATES: Record<TemplateCategory, Template[]> = Object.fromEntries(
  Object.entries(TEMPLATE_INPUTS).map(([category, list]) => [category, list.map(parseTemplate)]),
) as Record<TemplateCategory, Template[]>;

/** The source templates as written (before defaults), for tests that check them against the contracts. */
export const TEMPLATE_SOURCE_INPUTS = TEMPLATE_INPUTS;
