export interface YoutubeVideo {
  title: string;
  date: string;
  link: string;
  cover: string;
}

export interface YoutubeContent {
  channelId: string;
  channelName: string;
  videos: YoutubeVideo[];
}

/** SPEC §3 YouTube channel. */
export interface YoutubeChannel {
  channelId: string;
  title: string;
  description: string;
  subscribers: number;
  icon: string;
}
