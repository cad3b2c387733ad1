/** Where each provider answers and the credentials this server has for it (all from the config). */
export interface ProviderConfig {
  baseUrls: {
    openMeteo: string;
    openMeteoGeocoding: string;
    hn: string;
    reddit: string;
    redditOAuth: string;
    youtube: string;
    youtubeFeeds: string;
    youtubeWeb: string;
    productHunt: string;
    productHuntFeed: string;
    googleApi: string;
    twitterApi: string;
    stripeApi: string;
    /** FEED_MIRROR_URL: feeds on other hosts are read from here (offline development, benchmarks). */
    feedMirror: string | undefined;
  };
  credentials: {
    youtubeApiKey: string | undefined;
    productHuntToken: string | undefined;
    reddit: { clientId: string; clientSecret: string } | undefined;
  };
}
