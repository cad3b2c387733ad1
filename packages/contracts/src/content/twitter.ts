export interface TweetMedia {
  type: 'photo' | 'video' | 'animated_gif';
  url: string;
  previewUrl: string;
}

export interface TweetUser {
  twitterUserId: string;
  fullName: string;
  username: string;
  image: string;
  followersCount: number;
}

export interface Tweet {
  id: string;
  text: string;
  url: string;
  user: TweetUser;
  media: TweetMedia[];
  likesCount: number;
  retweetsCount: number;
  date: string;
  referencedTweets: { type: 'retweeted' | 'quoted' | 'replied_to'; id: string }[];
  isRetweeted: boolean;
  isQuoted: boolean;
  isReplied: boolean;
}

export interface TwitterContent {
  tweets: Tweet[];
}

/** SPEC §3 Twitter list. */
export interface TwitterList {
  listId: string;
  listName: string;
}
