/** SPEC §3 YouTube video: the newest uploads of a channel, from its feed. */
export interface YoutubeVideo {
  title: string;
  /** ISO 8601 publication time. */
  date: string;
  /** The watch page. */
  link: string;
  /** The video's hqdefault thumbnail, '' when images are hidden. */
  cover: string;
}

export interface YoutubeContent {
  channelId: string;
  /** The channel's title as its feed gives it. */
  channelName: string;
  videos: YoutubeVideo[];
}

/** SPEC §3 YouTube channel (search results and the popular list). */
export interface YoutubeChannel {
  channelId: string;
  title: string;
  description: string;
  subscribers: number;
  /** The channel's avatar, '' when unknown. */
  icon: string;
}
