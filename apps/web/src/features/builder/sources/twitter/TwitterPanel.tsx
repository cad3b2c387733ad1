import {
  type ConnectedAccount,
  IMAGES_OPTIONS,
  LAYOUT_OPTIONS,
  SOURCE_LABELS,
  SOURCE_POST_LIMITS,
  TWEET_TYPE_OPTIONS,
} from '@digest/contracts';
import type { TwitterContent } from '@digest/contracts/content';
import { useState } from 'react';
import { Avatar } from '#web/components/ui/Avatar';
import { accountName } from '#web/features/accounts';
import { useBlockPreview } from '#web/features/builder/api/preview-api';
import type { TwitterKind } from '#web/features/builder/lib/steps';
import { AccountLogOut } from '../connect/AccountLogOut';
import { ConnectStep } from '../connect/ConnectStep';
import { useBackToConnect, useProviderAccounts } from '../connect/use-provider-accounts';
import { ListConditionFields } from '../form/ConditionFields';
import {
  ChoiceField,
  CountField,
  NameField,
  OnlyNewField,
  SettingsForm,
  ToggleField,
} from '../form/SettingsFields';
import { settingDefaults } from '../form/setting-defaults';
import { type SourceForm, useSourceForm } from '../form/use-source-form';
import type { SourcePanelProps } from '../panel';
import { SearchPhraseFields, TwitterListField, TwitterUsersField } from './TwitterFields';
import styles from './TwitterPanel.module.css';

/** The form of one Twitter kind (TypeScript cannot narrow the form of the union by its `type`). */
const narrow = <K extends TwitterKind>(form: SourceForm<TwitterKind>) => form as unknown as SourceForm<K>;

/**
 * docs/product.md §4 Twitter tweets, timeline, search and list: pick a connected X account (connect), then the
 * kind's settings (edit). Logging out of the account starts the source afresh at connect.
 */
export function TwitterPanel(props: SourcePanelProps<TwitterKind>) {
  // A new key gives a fresh form; the block's saved settings belonged to the account that is gone.
  const [generation, setGeneration] = useState(0);
  return (
    <TwitterSource
      key={generation}
      {...props}
      initial={generation === 0 ? props.initial : null}
      onReset={() => setGeneration((count) => count + 1)}
    />
  );
}

/** The form lives above both steps, so the account picked at connect is there at edit. */
function TwitterSource({
  type,
  step,
  goTo,
  initial,
  onChange,
  onSave,
  onReset,
}: SourcePanelProps<TwitterKind> & { onReset: () => void }) {
  const form = useSourceForm(type, { ...settingDefaults(type), ...initial }, onChange);
  if (step === 'connect') {
    return (
      <ConnectStep
        provider="TWITTER"
        onPick={(account) => {
          const picked = { tokenId: account.tokenId, username: account.username ?? '' };
          // A list belongs to the account it was chosen with.
          const otherAccount = form.values.tokenId !== undefined && form.values.tokenId !== account.tokenId;
          form.merge(
            type === 'TWITTER_LIST' && otherAccount
              ? { ...picked, listId: undefined, listName: undefined }
              : picked,
          );
          goTo('edit');
        }}
        onLoggedOut={(account) => {
          if (account.tokenId === form.values.tokenId) onReset();
        }}
      />
    );
  }
  return (
    <TwitterSettings
      type={type}
      form={form}
      goTo={goTo}
      onSave={onSave}
      onLoggedOut={() => {
        onReset();
        goTo('connect');
      }}
    />
  );
}

function TwitterSettings({
  type,
  form,
  goTo,
  onSave,
  onLoggedOut,
}: Pick<SourcePanelProps<TwitterKind>, 'type' | 'goTo' | 'onSave'> & {
  form: SourceForm<TwitterKind>;
  onLoggedOut: () => void;
}) {
  const { accounts } = useProviderAccounts('TWITTER');
  const account = accounts?.find((item) => item.tokenId === form.values.tokenId);
  useBackToConnect(accounts !== undefined && account === undefined, goTo);
  const preview = useBlockPreview(form.source);
  const tweets = (preview.block?.content as TwitterContent | undefined)?.tweets ?? [];
  const canSave = form.source !== null && account !== undefined && tweets.length > 0;
  const limit = SOURCE_POST_LIMITS[type];
  const perUser = type !== 'TWITTER_SEARCH';

  return (
    <SettingsForm canSave={canSave} onSave={() => form.source && onSave(form.source)}>
      {account ? <ReadingWith account={account} onLoggedOut={onLoggedOut} /> : null}
      <NameField form={form} placeholder={SOURCE_LABELS[type]} />
      {type === 'TWITTER_TWEETS' ? <TwitterUsersField form={narrow<'TWITTER_TWEETS'>(form)} /> : null}
      {type === 'TWITTER_SEARCH' ? <SearchPhraseFields form={narrow<'TWITTER_SEARCH'>(form)} /> : null}
      {type === 'TWITTER_LIST' ? <TwitterListField form={narrow<'TWITTER_LIST'>(form)} /> : null}
      {perUser ? (
        <ToggleField
          form={narrow<Exclude<TwitterKind, 'TWITTER_SEARCH'>>(form)}
          field="includeRetweets"
          label="Include retweets"
        />
      ) : null}
      <CountField form={form} field="limit" label="Number of tweets" max={limit} />
      {perUser ? (
        <CountField
          form={narrow<Exclude<TwitterKind, 'TWITTER_SEARCH'>>(form)}
          field="numberOfTweetsPerUser"
          label="Tweets per user"
          max={limit}
        />
      ) : null}
      <ChoiceField form={form} field="tweetType" label="Tweet type" options={TWEET_TYPE_OPTIONS} />
      <ChoiceField form={form} field="layout" label="Layout" options={LAYOUT_OPTIONS} />
      <OnlyNewField form={form} />
      <ChoiceField form={form} field="images" label="Images" options={IMAGES_OPTIONS} />
      {form.source && !preview.loading ? (
        <p className={styles.note} role="status">
          {preview.error ?? (tweets.length === 0 ? 'No tweets to show with these settings yet.' : '')}
        </p>
      ) : null}
      <ListConditionFields form={form} max={limit} />
    </SettingsForm>
  );
}

/** The X account the tweets are read with, and its Log Out. */
function ReadingWith({ account, onLoggedOut }: { account: ConnectedAccount; onLoggedOut: () => void }) {
  const name = accountName(account);
  return (
    <div className={styles.account}>
      <Avatar src={account.profilePicture} name={name.replace(/^@/, '')} size="small" />
      <p className={styles.accountName}>
        Reading with <strong>{name}</strong>
      </p>
      <AccountLogOut account={account} onLoggedOut={onLoggedOut} />
    </div>
  );
}
