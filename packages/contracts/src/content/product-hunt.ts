/** SPEC §3 Product Hunt item: one of today's launches (Pacific time), best ranked first. */
export interface ProductHuntItem {
  name: string;
  tagline: string;
  /** Sanitised description, cut per `postBody` ('' for 'hide'). */
  description: string;
  /** '' when images are hidden or the launch has none. */
  thumbnail: string;
  votesCount: number;
  commentsCount: number;
  /** The launch's page on Product Hunt. */
  url: string;
}

export interface ProductHuntContent {
  items: ProductHuntItem[];
}
