import { IMAGES_OPTIONS, LAYOUT_OPTIONS, POST_CONTENT_OPTIONS, SOURCE_POST_LIMITS } from '@digest/contracts';
import type { Subreddit } from '@digest/contracts/content';
import { useQueryClient } from '@tanstack/react-query';
import { redditKeys, useSubreddits } from '#web/features/builder/api/reddit-api';
import { errorMessage } from '#web/lib/api-client';
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
import { subredditSettings } from './subreddits';

/** docs/product.md §4: Reddit goes selected (popular subreddits) → searching → edit. */
export function RedditPanel({ type, step, goTo, initial, onChange, onSave }: SourcePanelProps<'REDDIT'>) {
  const form = useSourceForm(type, initial ?? settingDefaults(type), onChange);
  const queryClient = useQueryClient();
  const search = useSearchStep({
    step,
    goTo,
    onCleared: () => queryClient.invalidateQueries({ queryKey: redditKeys.subreddits('') }),
  });

  if (step === 'edit') {
    const subreddit = form.values.sourceName;
    return (
      <SettingsForm canSave={form.source !== null} onSave={() => form.source && onSave(form.source)}>
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

/** 'Popular' subreddits without a phrase, 'Results' with one. */
export function SubredditResults({
  query,
  onPick,
}: {
  query: string;
  onPick: (subreddit: Subreddit) => void;
}) {
  const subreddits = useSubreddits(query);
  return (
    <ResultPanel
      title={query ? 'Results' : 'Popular'}
      loading={subreddits.isLoading}
      error={subreddits.error ? errorMessage(subreddits.error) : null}
      items={subreddits.data}
      keyOf={(subreddit) => subreddit.name}
      renderItem={(subreddit) => (
        <ResultButton
          title={`r/${subreddit.name}`}
          description={subscribersLine(subreddit.subscribers)}
          picture={subreddit.icon}
          onPick={() => onPick(subreddit)}
        />
      )}
    />
  );
}
