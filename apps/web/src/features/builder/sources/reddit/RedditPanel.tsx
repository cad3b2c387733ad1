import {
  IMAGES_OPTIONS,
  LAYOUT_OPTIONS,
  POST_CONTENT_OPTIONS,
  SOURCE_POST_LIMITS,
  subredditNameSchema,
} from '@digest/contracts';
import type { Subreddit } from '@digest/contracts/content';
import { useQueryClient } from '@tanstack/react-query';
import { redditKeys, useSubreddits } from '#web/features/builder/api/reddit-api';
import { errorMessage } from '#web/lib/api-client';
import { DiscussionConditionFields } from '../form/ConditionFields';
import {
  PickedChoice,
  ResultButton,
  ResultPanel,
  SearchBox,
  subscribersLine,
  useSearchStep,
} from '../form/Search';
import { ChoiceField, CountField, NameField, OnlyNewField, SettingsForm } from '../form/SettingsFields';
import { settingDefaults } from '../form/setting-defaults';
import { useSourceForm } from '../form/use-source-form';
import type { SourcePanelProps } from '../panel';
import styles from './RedditPanel.module.css';
import { subredditSettings } from './subreddits';

/** What reading a subreddit through its public feed cannot give (reddit.client.ts, `access: 'feed'`). */
export const REDDIT_FEED_NOTE =
  'Reddit does not let this server use its API, so posts come from the subreddit’s public feed: ' +
  'without upvotes or comment counts, at most 25 of the hot posts, and pinned and NSFW posts are not ' +
  'left out.';

/** The feed note, when the server reads Reddit through feeds. */
function FeedNote({ children }: { children?: string }) {
  return (
    <p className={styles.note} role="note">
      {REDDIT_FEED_NOTE}
      {children ? ` ${children}` : ''}
    </p>
  );
}

/** docs/product.md §4: Reddit goes selected (popular subreddits) → searching → edit. */
export function RedditPanel({ type, step, goTo, initial, onChange, onSave }: SourcePanelProps<'REDDIT'>) {
  const form = useSourceForm(type, initial ?? settingDefaults(type), onChange);
  const queryClient = useQueryClient();
  const search = useSearchStep({
    step,
    goTo,
    onCleared: () => queryClient.invalidateQueries({ queryKey: redditKeys.subreddits('') }),
  });

  const popular = useSubreddits('');
  const viaFeed = popular.data?.access === 'feed';

  if (step === 'edit') {
    const subreddit = form.values.sourceName;
    return (
      <SettingsForm canSave={form.source !== null} onSave={() => form.source && onSave(form.source)}>
        {viaFeed ? <FeedNote /> : null}
        <PickedChoice
          label="Subreddit"
          title={subreddit ? `r/${subreddit}` : ''}
          error={form.errors.sourceName}
          onChange={() => goTo('selected')}
        />
        <NameField form={form} />
        <CountField
          form={form}
          field="numberOfPosts"
          label="Number of posts"
          max={SOURCE_POST_LIMITS.REDDIT}
        />
        <ChoiceField form={form} field="images" label="Images" options={IMAGES_OPTIONS} />
        <ChoiceField form={form} field="postBody" label="Post content" options={POST_CONTENT_OPTIONS} />
        <ChoiceField form={form} field="layout" label="Layout" options={LAYOUT_OPTIONS} />
        <OnlyNewField form={form} />
        <DiscussionConditionFields form={form} max={SOURCE_POST_LIMITS.REDDIT} />
      </SettingsForm>
    );
  }
  return (
    <>
      <SearchBox
        label="Search subreddits"
        placeholder="Search subreddits"
        value={search.text}
        onChange={search.setText}
      />
      {viaFeed ? <FeedNote>Type the name of the subreddit to add.</FeedNote> : null}
      <SubredditResults
        query={search.query}
        onPick={(subreddit) => {
          form.merge(subredditSettings(subreddit));
          goTo('edit');
        }}
      />
    </>
  );
}

/** A subreddit named in full: what can be picked when Reddit gives this server no list to search. */
function namedSubreddit(query: string): Subreddit[] {
  const name = subredditNameSchema.safeParse(query);
  if (!name.success) return [];
  return [
    {
      name: name.data,
      description: '',
      subscribers: 0,
      url: `https://www.reddit.com/r/${name.data}/`,
      icon: '',
    },
  ];
}

/** 'Popular' subreddits without a phrase, 'Results' with one. */
export function SubredditResults({
  query,
  onPick,
}: {
  query: string;
  onPick: (subreddit: Subreddit) => void;
}) {
  const subreddits = useSubreddits(query);
  // Without a list (Reddit refusing this server), the name typed is the one result.
  const viaFeed = subreddits.data?.access === 'feed';
  const items = viaFeed ? namedSubreddit(query) : subreddits.data?.subreddits;
  return (
    <ResultPanel
      title={query ? 'Results' : 'Popular'}
      loading={subreddits.isLoading}
      error={subreddits.error ? errorMessage(subreddits.error) : null}
      idle={viaFeed && !query}
      items={items}
      keyOf={(subreddit) => subreddit.name}
      renderItem={(subreddit) => (
        <ResultButton
          title={`r/${subreddit.name}`}
          description={viaFeed ? 'Read from its public feed' : subscribersLine(subreddit.subscribers)}
          picture={subreddit.icon}
          onPick={() => onPick(subreddit)}
        />
      )}
    />
  );
}
