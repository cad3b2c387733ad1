export interface HackerNewsItem {
  title: string;
  /** The linked article; the discussion page when the story has no link (Ask HN). */
  url: string;
  /** The discussion page on news.ycombinator.com. */
  storyUrl: string;
  createdAt: string;
  numberOfComments: number;
  score: number;
}

export interface HackerNewsContent {
  items: HackerNewsItem[];
}
