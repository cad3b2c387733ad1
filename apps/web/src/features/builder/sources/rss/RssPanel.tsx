import { IMAGES_OPTIONS, LAYOUT_OPTIONS, POST_CONTENT_OPTIONS, SOURCE_POST_LIMITS } from '@digest/contracts';
import type { SearchResult } from '@digest/contracts/content';
import { useQueryClient } from '@tanstack/react-query';
import { rssKeys, useRssFeedInfo, useRssList } from '#web/features/builder/api/rss-api';
import { errorMessage } from '#web/lib/api-client';
import { ListConditionFields } from '../form/ConditionFields';
import { PickedChoice, ResultButton, ResultPanel, SearchBox, useSearchStep } from '../form/Search';
import { ChoiceField, CountField, NameField, OnlyNewField, SettingsForm } from '../form/SettingsFields';
import { settingDefaults } from '../form/setting-defaults';
import { useSourceForm } from '../form/use-source-form';
import type { SourcePanelProps } from '../panel';
import { feedAddress, feedSettings, imagesForcedHidden, pastedFeedResult, shownAddress } from './feeds';

/** docs/product.md §4: RSS goes selected (popular feeds) → searching (a phrase or a pasted address) → edit. */
export function RssPanel({ type, step, goTo, initial, onChange, onSave }: SourcePanelProps<'RSS'>) {
  const form = useSourceForm(type, initial ?? settingDefaults(type), onChange);
  const queryClient = useQueryClient();
  const search = useSearchStep({
    step,
    goTo,
    onCleared: () => queryClient.invalidateQueries({ queryKey: rssKeys.list('') }),
  });

  if (step === 'edit') {
    const { values, errors } = form;
    return (
      <SettingsForm canSave={form.source !== null} onSave={() => form.source && onSave(form.source)}>
        <PickedChoice
          label="Feed"
          title={values.sourceName || shownAddress(values) || ''}
          description={shownAddress(values)}
          picture={values.favicon}
          error={errors.feedLink ?? errors.pageUrl ?? errors.favicon ?? errors.sourceName}
          onChange={() => goTo('selected')}
        />
        <NameField form={form} />
        <CountField form={form} field="numberOfPosts" label="Number of posts" max={SOURCE_POST_LIMITS.RSS} />
        <ChoiceField
          form={form}
          field="images"
          label="Images"
          options={IMAGES_OPTIONS}
          locked={
            imagesForcedHidden(values)
              ? { value: 'hide', reason: 'Images are hidden while post content is hidden.' }
              : null
          }
        />
        <ChoiceField form={form} field="postBody" label="Post content" options={POST_CONTENT_OPTIONS} />
        <ChoiceField form={form} field="layout" label="Layout" options={LAYOUT_OPTIONS} />
        <OnlyNewField form={form} />
        <ListConditionFields form={form} max={SOURCE_POST_LIMITS.RSS} />
      </SettingsForm>
    );
  }
  const pick = (result: SearchResult) => {
    form.merge(feedSettings(result));
    goTo('edit');
  };
  const pasted = feedAddress(search.query);
  return (
    <>
      <SearchBox
        label="Search feeds or paste a feed address"
        placeholder="Search feeds or paste a link"
        value={search.text}
        onChange={search.setText}
      />
      {pasted ? (
        <PastedFeed url={pasted} onPick={pick} />
      ) : (
        <FeedResults query={search.query} onPick={pick} />
      )}
    </>
  );
}

function FeedButton({ result, onPick }: { result: SearchResult; onPick: (result: SearchResult) => void }) {
  return (
    <ResultButton
      title={result.title}
      description={result.description}
      picture={result.customProps.favicon}
      onPick={() => onPick(result)}
    />
  );
}

/** 'Popular' feeds without a phrase, the catalogue's matches ('Results') with one. */
export function FeedResults({ query, onPick }: { query: string; onPick: (result: SearchResult) => void }) {
  const feeds = useRssList(query);
  return (
    <ResultPanel
      title={query ? 'Results' : 'Popular'}
      loading={feeds.isLoading}
      error={feeds.error ? errorMessage(feeds.error) : null}
      items={feeds.data}
      keyOf={(result) => result.platformId}
      renderItem={(result) => <FeedButton result={result} onPick={onPick} />}
    />
  );
}

/** A pasted address: the feed it is (or the one its page announces) as the only result. */
export function PastedFeed({ url, onPick }: { url: string; onPick: (result: SearchResult) => void }) {
  const feed = useRssFeedInfo(url);
  return (
    <ResultPanel
      title="Results"
      loading={feed.isLoading}
      error={feed.error ? errorMessage(feed.error) : null}
      items={feed.data ? [pastedFeedResult(url, feed.data)] : undefined}
      keyOf={(result) => result.platformId}
      renderItem={(result) => <FeedButton result={result} onPick={onPick} />}
    />
  );
}
