import type { SearchResult } from '@digest/contracts/content';

/**
 * The RSS list (docs/product.md §7 `GET /data-sources/rss/list`): popular, long-lived public feeds across news,
 * tech, design, science, business, sport and culture. `platformId` is the feed's own address (what the
 * builder saves as `feedLink`); `favicon` is the site's icon.
 *
 * Offline (`npm run dev` against test/fakes), the feeds fake answers each of these at
 * `<fakes>/feeds/mirror/<host><path>`; see test/fakes/providers/feeds.ts.
 */
export const RSS_CATALOGUE: readonly SearchResult[] = [
  {
    title: 'BBC News',
    description: 'Top stories from the BBC: UK and world news, politics, business and more.',
    platformId: 'https://feeds.bbci.co.uk/news/rss.xml',
    customProps: { favicon: 'https://www.bbc.co.uk/favicon.ico' },
  },
  {
    title: 'The Guardian – World news',
    description: 'World news from the Guardian: the latest headlines and analysis from around the globe.',
    platformId: 'https://www.theguardian.com/world/rss',
    customProps: { favicon: 'https://www.theguardian.com/favicon.ico' },
  },
  {
    title: 'NPR News',
    description: "National Public Radio's top news stories from the US and the world.",
    platformId: 'https://feeds.npr.org/1001/rss.xml',
    customProps: { favicon: 'https://www.npr.org/favicon.ico' },
  },
  {
    title: 'Al Jazeera – All news',
    description: 'Breaking news, world news and current affairs from Al Jazeera.',
    platformId: 'https://www.aljazeera.com/xml/rss/all.xml',
    customProps: { favicon: 'https://www.aljazeera.com/favicon.ico' },
  },
  {
    title: 'The New York Times – Home Page',
    description: 'The top stories on the front page of The New York Times.',
    platformId: 'https://rss.nytimes.com/services/xml/rss/nyt/HomePage.xml',
    customProps: { favicon: 'https://www.nytimes.com/favicon.ico' },
  },
  {
    title: 'DW – All content',
    description: "Deutsche Welle's news from Germany, Europe and the world, in English.",
    platformId: 'https://rss.dw.com/rdf/rss-en-all',
    customProps: { favicon: 'https://www.dw.com/favicon.ico' },
  },
  {
    title: 'The Washington Post – World',
    description: 'International news and analysis from The Washington Post.',
    platformId: 'https://feeds.washingtonpost.com/rss/world',
    customProps: { favicon: 'https://www.washingtonpost.com/favicon.ico' },
  },
  {
    title: 'ABC News (Australia)',
    description: 'Top stories from the Australian Broadcasting Corporation.',
    platformId: 'https://www.abc.net.au/news/feed/51120/rss.xml',
    customProps: { favicon: 'https://www.abc.net.au/favicon.ico' },
  },
  {
    title: 'Hacker News',
    description: 'Links and discussions voted to the front page of Hacker News.',
    platformId: 'https://news.ycombinator.com/rss',
    customProps: { favicon: 'https://news.ycombinator.com/favicon.ico' },
  },
  {
    title: 'The Verge',
    description: 'Technology, science, art and culture news from The Verge.',
    platformId: 'https://www.theverge.com/rss/index.xml',
    customProps: { favicon: 'https://www.theverge.com/favicon.ico' },
  },
  {
    title: 'Ars Technica',
    description: 'Technology news and analysis: science, policy, IT, gaming and gadgets.',
    platformId: 'https://feeds.arstechnica.com/arstechnica/index',
    customProps: { favicon: 'https://arstechnica.com/favicon.ico' },
  },
  {
    title: 'TechCrunch',
    description: 'Startup and technology news: funding rounds, products and the people behind them.',
    platformId: 'https://techcrunch.com/feed/',
    customProps: { favicon: 'https://techcrunch.com/favicon.ico' },
  },
  {
    title: 'Wired',
    description: 'How technology is changing every aspect of our lives, from Wired magazine.',
    platformId: 'https://www.wired.com/feed/rss',
    customProps: { favicon: 'https://www.wired.com/favicon.ico' },
  },
  {
    title: 'Engadget',
    description: 'Consumer electronics, gadgets and gaming news and reviews.',
    platformId: 'https://www.engadget.com/rss.xml',
    customProps: { favicon: 'https://www.engadget.com/favicon.ico' },
  },
  {
    title: 'MIT Technology Review',
    description: 'Emerging technology and its impact on business, society and the world.',
    platformId: 'https://www.technologyreview.com/feed/',
    customProps: { favicon: 'https://www.technologyreview.com/favicon.ico' },
  },
  {
    title: 'The GitHub Blog',
    description: 'Updates, ideas and inspiration from GitHub for developers.',
    platformId: 'https://github.blog/feed/',
    customProps: { favicon: 'https://github.blog/favicon.ico' },
  },
  {
    title: 'Stack Overflow Blog',
    description: 'Essays, opinions and advice on the craft of programming.',
    platformId: 'https://stackoverflow.blog/feed/',
    customProps: { favicon: 'https://stackoverflow.blog/favicon.ico' },
  },
  {
    title: 'Mozilla Hacks',
    description: 'Web developer news and deep dives from Mozilla.',
    platformId: 'https://hacks.mozilla.org/feed/',
    customProps: { favicon: 'https://hacks.mozilla.org/favicon.ico' },
  },
  {
    title: 'Lobsters',
    description: 'A computing-focused link aggregation and discussion community.',
    platformId: 'https://lobste.rs/rss',
    customProps: { favicon: 'https://lobste.rs/favicon.ico' },
  },
  {
    title: 'Daring Fireball',
    description: 'John Gruber on Apple, technology and design (JSON Feed).',
    platformId: 'https://daringfireball.net/feeds/json',
    customProps: { favicon: 'https://daringfireball.net/favicon.ico' },
  },
  {
    title: 'Smashing Magazine',
    description: 'Articles for web designers and developers: CSS, UX, accessibility and more.',
    platformId: 'https://www.smashingmagazine.com/feed/',
    customProps: { favicon: 'https://www.smashingmagazine.com/favicon.ico' },
  },
  {
    title: 'CSS-Tricks',
    description: 'Tips, tricks and techniques on using CSS and building websites.',
    platformId: 'https://css-tricks.com/feed/',
    customProps: { favicon: 'https://css-tricks.com/favicon.ico' },
  },
  {
    title: 'A List Apart',
    description: 'Articles for people who make websites: design, code and content.',
    platformId: 'https://alistapart.com/main/feed/',
    customProps: { favicon: 'https://alistapart.com/favicon.ico' },
  },
  {
    title: 'Nielsen Norman Group',
    description: 'Evidence-based user experience research, training and consulting.',
    platformId: 'https://www.nngroup.com/feed/rss/',
    customProps: { favicon: 'https://www.nngroup.com/favicon.ico' },
  },
  {
    title: 'Dezeen',
    description: 'Architecture, interiors and design news from Dezeen magazine.',
    platformId: 'https://www.dezeen.com/feed/',
    customProps: { favicon: 'https://www.dezeen.com/favicon.ico' },
  },
  {
    title: 'designboom',
    description: 'Architecture and design magazine: projects, products and interviews.',
    platformId: 'https://www.designboom.com/feed/',
    customProps: { favicon: 'https://www.designboom.com/favicon.ico' },
  },
  {
    title: 'Sidebar',
    description: 'The five best design links, every day.',
    platformId: 'https://sidebar.io/feed.xml',
    customProps: { favicon: 'https://sidebar.io/favicon.ico' },
  },
  {
    title: 'NASA',
    description: 'News releases and stories from NASA.',
    platformId: 'https://www.nasa.gov/feed/',
    customProps: { favicon: 'https://www.nasa.gov/favicon.ico' },
  },
  {
    title: 'Nature',
    description: 'The latest research and news from the journal Nature.',
    platformId: 'https://www.nature.com/nature.rss',
    customProps: { favicon: 'https://www.nature.com/favicon.ico' },
  },
  {
    title: 'ScienceDaily',
    description: 'Breaking science news and research articles from universities and institutes.',
    platformId: 'https://www.sciencedaily.com/rss/all.xml',
    customProps: { favicon: 'https://www.sciencedaily.com/favicon.ico' },
  },
  {
    title: 'Quanta Magazine',
    description: 'Mathematics, physics, biology and computer science, explained.',
    platformId: 'https://www.quantamagazine.org/feed/',
    customProps: { favicon: 'https://www.quantamagazine.org/favicon.ico' },
  },
  {
    title: 'New Scientist',
    description: 'Science and technology news from New Scientist.',
    platformId: 'https://www.newscientist.com/feed/home/',
    customProps: { favicon: 'https://www.newscientist.com/favicon.ico' },
  },
  {
    title: 'Phys.org',
    description: 'Daily science news on physics, space, nanotechnology and more.',
    platformId: 'https://phys.org/rss-feed/',
    customProps: { favicon: 'https://phys.org/favicon.ico' },
  },
  {
    title: 'Harvard Business Review',
    description: 'Ideas and advice on management, leadership and strategy.',
    platformId: 'https://feeds.hbr.org/harvardbusiness',
    customProps: { favicon: 'https://hbr.org/favicon.ico' },
  },
  {
    title: 'The Economist – Finance and economics',
    description: 'Finance and economics coverage from The Economist.',
    platformId: 'https://www.economist.com/finance-and-economics/rss.xml',
    customProps: { favicon: 'https://www.economist.com/favicon.ico' },
  },
  {
    title: 'Financial Times – Home',
    description: 'Business, finance and world news from the Financial Times.',
    platformId: 'https://www.ft.com/rss/home',
    customProps: { favicon: 'https://www.ft.com/favicon.ico' },
  },
  {
    title: 'Fast Company',
    description: 'Business innovation, technology, leadership and design.',
    platformId: 'https://www.fastcompany.com/latest/rss',
    customProps: { favicon: 'https://www.fastcompany.com/favicon.ico' },
  },
  {
    title: "Seth's Blog",
    description: "Seth Godin's daily thoughts on marketing, leadership and work.",
    platformId: 'https://seths.blog/feed/',
    customProps: { favicon: 'https://seths.blog/favicon.ico' },
  },
  {
    title: 'Marginal Revolution',
    description: "Tyler Cowen and Alex Tabarrok's blog on economics and culture.",
    platformId: 'https://marginalrevolution.com/feed',
    customProps: { favicon: 'https://marginalrevolution.com/favicon.ico' },
  },
  {
    title: 'ESPN – Top headlines',
    description: 'Sports news and headlines from ESPN.',
    platformId: 'https://www.espn.com/espn/rss/news',
    customProps: { favicon: 'https://www.espn.com/favicon.ico' },
  },
  {
    title: 'Polygon',
    description: 'Video game news, reviews and culture.',
    platformId: 'https://www.polygon.com/rss/index.xml',
    customProps: { favicon: 'https://www.polygon.com/favicon.ico' },
  },
  {
    title: 'xkcd',
    description: 'A webcomic of romance, sarcasm, math and language.',
    platformId: 'https://xkcd.com/atom.xml',
    customProps: { favicon: 'https://xkcd.com/favicon.ico' },
  },
  {
    title: 'kottke.org',
    description: "Jason Kottke's home of fine hypertext products since 1998.",
    platformId: 'https://feeds.kottke.org/main',
    customProps: { favicon: 'https://kottke.org/favicon.ico' },
  },
  {
    title: 'Longreads',
    description: 'The best longform stories on the web.',
    platformId: 'https://longreads.com/feed/',
    customProps: { favicon: 'https://longreads.com/favicon.ico' },
  },
];
