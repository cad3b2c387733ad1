import { IMAGES_OPTIONS, LAYOUT_OPTIONS, SOURCE_POST_LIMITS, youtubeAddressOf } from '@digest/contracts';
import type { YoutubeChannel } from '@digest/contracts/content';
import { useQueryClient } from '@tanstack/react-query';
import { useCatalogue } from '#web/features/builder/api/catalogue-api';
import { useYoutubeChannels, youtubeKeys } from '#web/features/builder/api/youtube-api';
import { errorMessage } from '#web/lib/api-client';
import { ListConditionFields } from '../form/ConditionFields';
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
import { channelSearchUnavailable, channelSettings } from './channels';
import styles from './YoutubePanel.module.css';

/**
 * docs/product.md §4: YouTube goes selected (popular channels) → searching → edit. Without a Data API key the
 * server cannot search: the panel says so and takes a pasted channel, handle or video address instead
 * (channel feeds need no key), beside the popular channels.
 */
export function YoutubePanel({ type, step, goTo, initial, onChange, onSave }: SourcePanelProps<'YOUTUBE'>) {
  const form = useSourceForm(type, initial ?? settingDefaults(type), onChange);
  const queryClient = useQueryClient();
  const search = useSearchStep({
    step,
    goTo,
    onCleared: () => queryClient.invalidateQueries({ queryKey: youtubeKeys.channels('') }),
  });
  const unavailable = channelSearchUnavailable(useCatalogue().data);

  if (step === 'edit') {
    return (
      <SettingsForm canSave={form.source !== null} onSave={() => form.source && onSave(form.source)}>
        <PickedChoice
          label="Channel"
          title={form.values.channelName || form.values.channelId || ''}
          error={form.errors.channelId}
          onChange={() => goTo('selected')}
        />
        <NameField form={form} />
        <CountField
          form={form}
          field="numberOfPosts"
          label="Number of posts"
          max={SOURCE_POST_LIMITS.YOUTUBE}
        />
        <ChoiceField form={form} field="layout" label="Layout" options={LAYOUT_OPTIONS} />
        <OnlyNewField form={form} />
        <ListConditionFields form={form} max={SOURCE_POST_LIMITS.YOUTUBE} />
        <ChoiceField form={form} field="images" label="Images" options={IMAGES_OPTIONS} />
      </SettingsForm>
    );
  }
  return (
    <>
      {unavailable && (
        <p className={styles.note}>
          {`${unavailable}: paste a channel's address (youtube.com/@name, a channel or a video link), or choose one of the popular channels.`}
        </p>
      )}
      <SearchBox
        label={unavailable ? 'Channel address' : 'Search channels'}
        placeholder={unavailable ? 'Paste a channel address' : 'Search channels'}
        value={search.text}
        onChange={search.setText}
      />
      <ChannelResults
        query={unavailable && !youtubeAddressOf(search.query) ? '' : search.query}
        onPick={(channel) => {
          form.merge(channelSettings(channel));
          goTo('edit');
        }}
      />
    </>
  );
}

/** 'Popular' channels without a phrase, 'Results' with one. */
export function ChannelResults({
  query,
  onPick,
}: {
  query: string;
  onPick: (channel: YoutubeChannel) => void;
}) {
  const channels = useYoutubeChannels(query);
  return (
    <ResultPanel
      title={query ? 'Results' : 'Popular'}
      loading={channels.isLoading}
      error={channels.error ? errorMessage(channels.error) : null}
      items={channels.data}
      keyOf={(channel) => channel.channelId}
      renderItem={(channel) => (
        <ResultButton
          title={channel.title}
          // 0 is a hidden count, or a channel found by its address without an API key: unknown, not none.
          description={channel.subscribers > 0 ? subscribersLine(channel.subscribers) : undefined}
          picture={channel.icon}
          onPick={() => onPick(channel)}
        />
      )}
    />
  );
}
