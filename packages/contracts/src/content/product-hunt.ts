export interface ProductHuntItem {
  name: string;
  tagline: string;
  /** Sanitised description, cut per `postBody`. */
  description: string;
  thumbnail: string;
  votesCount: number;
  commentsCount: number;
  url: string;
}

export interface ProductHuntContent {
  items: ProductHuntItem[];
}
