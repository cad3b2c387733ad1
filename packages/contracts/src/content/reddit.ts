export interface RedditPost {
  id: string;
  url: string;
  ups: number;
  numComments: number;
  title: string;
  /** Sanitised HTML of the self text, cut per `postBody`. */
  selfText: string;
  image: string;
}

export interface RedditContent {
  subreddit: string;
  posts: RedditPost[];
}

/** SPEC §3 subreddit list entry. */
export interface Subreddit {
  name: string;
  description: string;
  subscribers: number;
  url: string;
  icon: string;
}
