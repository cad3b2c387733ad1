import type { FakeProvider } from '../fake-provider';
import { feedPoolFake } from './feed-pool';
import { feedsFake } from './feeds';
import { googleApiFake } from './google-api';
import { hackerNewsFake } from './hacker-news';
import { oauthFakeProviders } from './oauth';
import { openMeteoFakeWith } from './open-meteo';
import { productHuntFake } from './product-hunt';
import { redditFake } from './reddit';
import { stripeFake } from './stripe';
import { twitterFake } from './twitter';
import { youtubeFake } from './youtube';

/** Every fake provider; each file under providers/ adds itself here. */
export const allFakeProviders: FakeProvider[] = [
  // Before feedsFake: the first provider whose prefix matches answers.
  feedPoolFake(),
  feedsFake,
  openMeteoFakeWith({ moveToToday: true }),
  hackerNewsFake,
  redditFake,
  googleApiFake(),
  twitterFake(),
  stripeFake(),
  ...oauthFakeProviders,
  youtubeFake(),
  productHuntFake(),
];
