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
    productHunt: string;
    googleApi: string;
    twitterApi: string;
    stripeApi: string;
  };
  credentials: {
    youtubeApiKey: string | undefined;
    productHuntToken: string | undefined;
    reddit: { clientId: string; clientSecret: string } | undefined;
  };
}
