import type { calendar_v3 } from '@googleapis/calendar';
import type { youtube_v3 } from '@googleapis/youtube';
import type Stripe from 'stripe';
import type { components as XApi } from 'twitter-api-sdk/dist/gen/openapi-types';
import { describe, expect, expectTypeOf, it } from 'vitest';
import calendarList from '../fixtures/google-api/calendar-list.json';
import holidays from '../fixtures/google-api/events-holidays.json';
import oldProject from '../fixtures/google-api/events-old-project.json';
import primary from '../fixtures/google-api/events-primary.json';
import work from '../fixtures/google-api/events-work.json';
import oauthAccounts from '../fixtures/oauth/accounts.json';
import charges from '../fixtures/stripe/charges.json';
import customers from '../fixtures/stripe/customers.json';
import followedLists from '../fixtures/twitter/followed-lists.json';
import following from '../fixtures/twitter/following.json';
import listMembersOne from '../fixtures/twitter/list-members-1600000000000000001.json';
import listMembersTwo from '../fixtures/twitter/list-members-1600000000000000002.json';
import me from '../fixtures/twitter/me.json';
import ownedLists from '../fixtures/twitter/owned-lists.json';
import tweets from '../fixtures/twitter/tweets.json';
import channels from '../fixtures/youtube/channels.json';
import searchChannels from '../fixtures/youtube/search-channels.json';
import type { Recordable, UnknownFields } from './sdk-shapes';

/**
 * The fakes' recordings against the providers' own SDK types (`stripe`, `@googleapis/calendar`,
 * `twitter-api-sdk`, `@googleapis/youtube`, dev dependencies only): the type checks (`npm run typecheck`) fail when a field is misnamed or of the wrong
 * type; the tests check what types cannot, such as Stripe's literal `object` names.
 */
describe('the Google Calendar fixtures have the shape of Calendar API v3 (calendar_v3 types)', () => {
  it('holds the calendar list and every calendar’s events to Schema$CalendarList and Schema$Events', () => {
    expectTypeOf(calendarList).toExtend<Recordable<calendar_v3.Schema$CalendarList>>();
    expectTypeOf<UnknownFields<typeof calendarList, calendar_v3.Schema$CalendarList>>().toBeNever();
    for (const events of [primary, work, oldProject, holidays]) {
      expect(events.kind).toBe('calendar#events');
    }
    expectTypeOf(primary).toExtend<Recordable<calendar_v3.Schema$Events>>();
    expectTypeOf<UnknownFields<typeof primary, calendar_v3.Schema$Events>>().toBeNever();
    expectTypeOf(work).toExtend<Recordable<calendar_v3.Schema$Events>>();
    expectTypeOf<UnknownFields<typeof work, calendar_v3.Schema$Events>>().toBeNever();
    expectTypeOf(oldProject).toExtend<Recordable<calendar_v3.Schema$Events>>();
    expectTypeOf<UnknownFields<typeof oldProject, calendar_v3.Schema$Events>>().toBeNever();
    expectTypeOf(holidays).toExtend<Recordable<calendar_v3.Schema$Events>>();
    expectTypeOf<UnknownFields<typeof holidays, calendar_v3.Schema$Events>>().toBeNever();
  });

  it('carries every event type Google documents, each with the properties of its type', () => {
    const types = new Set(primary.items.map((event) => event.eventType));
    expect([...types].sort()).toEqual(
      ['birthday', 'default', 'focusTime', 'fromGmail', 'outOfOffice', 'workingLocation'].sort(),
    );
    const properties: Record<string, string> = {
      birthday: 'birthdayProperties',
      focusTime: 'focusTimeProperties',
      outOfOffice: 'outOfOfficeProperties',
      workingLocation: 'workingLocationProperties',
    };
    for (const event of primary.items) {
      const wanted = properties[event.eventType];
      if (wanted) expect(event, event.summary).toHaveProperty(wanted);
    }
  });
});

/**
 * YouTube's search results carry `snippet.publishTime` (the same instant as `publishedAt`), which neither
 * the reference (https://developers.google.com/youtube/v3/docs/search) nor the discovery document the
 * types are generated from declares; the recording keeps it as YouTube sends it, and only it is allowed.
 */
type YouTubeSearch = Omit<youtube_v3.Schema$SearchListResponse, 'items'> & {
  items?: (Omit<youtube_v3.Schema$SearchResult, 'snippet'> & {
    snippet?: youtube_v3.Schema$SearchResultSnippet & { publishTime?: string };
  })[];
};

describe('the YouTube fixtures have the shape of the YouTube Data API v3 (youtube_v3 types)', () => {
  // The channel feeds (videos.xml) are Atom, read by the feed parser; only the Data API answers JSON.
  it('holds the channel search to Schema$SearchListResponse and the channels to Schema$ChannelListResponse', () => {
    expectTypeOf(searchChannels).toExtend<Recordable<YouTubeSearch>>();
    expectTypeOf<UnknownFields<typeof searchChannels, YouTubeSearch>>().toBeNever();
    expectTypeOf(channels).toExtend<Recordable<youtube_v3.Schema$ChannelListResponse>>();
    expectTypeOf<UnknownFields<typeof channels, youtube_v3.Schema$ChannelListResponse>>().toBeNever();
    expect(searchChannels.kind).toBe('youtube#searchListResponse');
    expect(searchChannels.items.every((item) => item.kind === 'youtube#searchResult')).toBe(true);
    expect(channels.kind).toBe('youtube#channelListResponse');
    expect(channels.items.every((item) => item.kind === 'youtube#channel')).toBe(true);
  });
});

describe('the Stripe fixtures have the shape of the Stripe API (stripe types)', () => {
  it('holds the charges to ApiList<Charge> and the customers to ApiList<Customer>', () => {
    expectTypeOf(charges).toExtend<Recordable<Stripe.ApiList<Stripe.Charge>>>();
    expectTypeOf<UnknownFields<typeof charges, Stripe.ApiList<Stripe.Charge>>>().toBeNever();
    expectTypeOf(customers).toExtend<Recordable<Stripe.ApiList<Stripe.Customer>>>();
    expectTypeOf<UnknownFields<typeof customers, Stripe.ApiList<Stripe.Customer>>>().toBeNever();
    expect(charges.object).toBe('list');
    expect(charges.data.every((charge) => charge.object === 'charge')).toBe(true);
    expect(customers.data.every((customer) => customer.object === 'customer')).toBe(true);
  });

  it('holds the connected accounts (GET /v1/account) to Account, each with a default currency', () => {
    expectTypeOf(oauthAccounts.stripe).toExtend<Recordable<Stripe.Account>[]>();
    expectTypeOf<UnknownFields<typeof oauthAccounts.stripe, Stripe.Account[]>>().toBeNever();
    expect(oauthAccounts.stripe.map((account) => account.default_currency)).toEqual(['usd', 'jpy']);
  });
});

type X = XApi['schemas'];
/**
 * `twitter-api-sdk` 1.2.1 (the latest) was generated from X's OpenAPI document of 2022, before X added
 * these fields; each is in X's data dictionary today (https://docs.x.com/x-api/fundamentals/data-dictionary)
 * and in X's newer SDK, `@xdevplatform/xdk` 0.6 (`notePost`, `PostPublicMetrics`, `UserPublicMetrics`, camel-
 * cased there, so it cannot check the wire). Only these are allowed beyond the SDK's types.
 */
type XTweet = X['Tweet'] & {
  /** A long post's whole text ("note_tweet: the full text of a Post for long-form Posts (>280 characters)"). */
  note_tweet?: { text: string; entities?: X['FullTextEntities'] };
  /** https://docs.x.com/x-api/fundamentals/metrics: "bookmark_count", "impression_count" in public_metrics. */
  public_metrics?: { bookmark_count: number; impression_count: number };
};
type XUser = X['User'] & {
  /** The user's public_metrics of X's data dictionary also count their likes and media. */
  public_metrics?: { like_count: number; media_count: number };
};
/**
 * X's `Media` is a oneOf on `type` (Photo, Video, AnimatedGif); the generated types keep only the base in
 * `Expansions.media`, so a medium is held to the fields of any of the three.
 */
type XMedia = X['Photo'] & X['Video'] & X['AnimatedGif'];
type XTweetsPage = Omit<X['Get2UsersIdTweetsResponse'], 'data' | 'includes'> & {
  data?: XTweet[];
  includes?: Omit<X['Expansions'], 'tweets' | 'users' | 'media'> & {
    tweets?: XTweet[];
    users?: XUser[];
    media?: XMedia[];
  };
};
type XUsersPage<Page> = Omit<Page, 'data'> & { data?: XUser[] };

describe('the X fixtures have the shape of X API v2 (twitter-api-sdk’s OpenAPI types)', () => {
  it('holds the recorded posts, with their authors and media, to a page of user posts', () => {
    // One recording answers the user posts, the home timeline, search and list posts (same page shape).
    expectTypeOf(tweets).toExtend<Recordable<XTweetsPage>>();
    expectTypeOf<UnknownFields<typeof tweets, XTweetsPage>>().toBeNever();
    const media = new Set(tweets.includes.media.map((medium) => medium.type));
    expect([...media].sort()).toEqual(['animated_gif', 'photo', 'video']);
    expect(tweets.data.some((tweet) => tweet.note_tweet !== undefined)).toBe(true);
  });

  it('holds the signed-in user, the followed accounts, the lists and their members to their answers', () => {
    type Me = Omit<X['Get2UsersMeResponse'], 'data'> & { data?: XUser };
    expectTypeOf(me).toExtend<Recordable<Me>>();
    expectTypeOf<UnknownFields<typeof me, Me>>().toBeNever();
    type Following = XUsersPage<X['Get2UsersIdFollowingResponse']>;
    expectTypeOf(following).toExtend<Recordable<Following>>();
    expectTypeOf<UnknownFields<typeof following, Following>>().toBeNever();
    type Members = XUsersPage<X['Get2ListsIdMembersResponse']>;
    for (const members of [listMembersOne, listMembersTwo]) {
      expectTypeOf(members).toExtend<Recordable<Members>>();
      expectTypeOf<UnknownFields<typeof members, Members>>().toBeNever();
    }
    expectTypeOf(ownedLists).toExtend<Recordable<X['Get2UsersIdOwnedListsResponse']>>();
    expectTypeOf<UnknownFields<typeof ownedLists, X['Get2UsersIdOwnedListsResponse']>>().toBeNever();
    expectTypeOf(followedLists).toExtend<Recordable<X['Get2UsersIdFollowedListsResponse']>>();
    expectTypeOf<UnknownFields<typeof followedLists, X['Get2UsersIdFollowedListsResponse']>>().toBeNever();
  });
});
