import { useState } from 'react';
import { Button } from '#web/components/ui/Button';
import { SelectField } from '#web/components/ui/SelectField';
import { TextField } from '#web/components/ui/TextField';
import { useTwitterLists, useTwitterUsers } from '#web/features/builder/api/twitter-api';
import { errorMessage } from '#web/lib/api-client';
import { ResultButton, ResultPanel, SearchBox, useDebouncedSearch } from '../form/Search';
import { ToggleField } from '../form/SettingsFields';
import fieldStyles from '../form/SettingsFields.module.css';
import type { SourceForm } from '../form/use-source-form';
import styles from './TwitterPanel.module.css';
import { addTwitterUser, type ChosenTwitterUser, removeTwitterUser } from './twitter-users';

/**
 * TWITTER_TWEETS: the users whose tweets are read. Suggestions (the accounts the user follows) until more
 * than 2 characters are typed, then a search; each user is added once and can be removed.
 */
export function TwitterUsersField({ form }: { form: SourceForm<'TWITTER_TWEETS'> }) {
  const [text, setText] = useState('');
  const search = useDebouncedSearch(text);
  const users = useTwitterUsers(form.values.tokenId ?? '', search);
  const chosen = (form.values.twitterUsers ?? []) as ChosenTwitterUser[];
  return (
    <fieldset className={fieldStyles.group}>
      <legend className={fieldStyles.legend}>Users</legend>
      {chosen.length === 0 ? (
        <p className={styles.note}>No users added yet: pick them below.</p>
      ) : (
        <ul className={styles.chosen} aria-label="Chosen users">
          {chosen.map((user) => (
            <li key={user.username} className={styles.chip}>
              <span>@{user.username}</span>
              <Button
                variant="ghost"
                small
                aria-label={`Remove @${user.username}`}
                onClick={() => form.set('twitterUsers', removeTwitterUser(chosen, user.username))}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      <SearchBox label="Search X users" placeholder="Search users" value={text} onChange={setText} />
      <ResultPanel
        title={search ? 'Results' : 'Popular'}
        loading={users.isPending}
        error={users.error ? errorMessage(users.error) : null}
        items={users.data}
        keyOf={(user) => user.username}
        renderItem={(user) => (
          <ResultButton
            title={user.fullName || `@${user.username}`}
            description={`@${user.username}`}
            picture={user.image}
            onPick={() => form.set('twitterUsers', addTwitterUser(chosen, user))}
          />
        )}
      />
    </fieldset>
  );
}

/** TWITTER_SEARCH: the phrase (its first word longer than 2 characters) and the docs/product.md §5 filters. */
export function SearchPhraseFields({ form }: { form: SourceForm<'TWITTER_SEARCH'> }) {
  const phrase = form.values.search;
  return (
    <>
      <TextField
        label="Search phrase"
        name="search"
        value={phrase ?? ''}
        // Nothing typed yet is not a mistake to point at; Save stays disabled meanwhile.
        error={phrase === undefined ? undefined : form.errors.search}
        onChange={(event) => form.set('search', event.target.value)}
      />
      <fieldset className={fieldStyles.group}>
        <legend className={fieldStyles.legend}>Filters</legend>
        <ToggleField form={form} field="hideRetweets" label="Hide retweets" />
        <ToggleField form={form} field="hideReplies" label="Hide replies" />
        <ToggleField form={form} field="linksOnly" label="Links only" />
        <ToggleField form={form} field="imagesOnly" label="Images only" />
      </fieldset>
    </>
  );
}

/** TWITTER_LIST: one of the lists the connected account owns or follows. */
export function TwitterListField({ form }: { form: SourceForm<'TWITTER_LIST'> }) {
  const lists = useTwitterLists(form.values.tokenId ?? '');
  const { listId, listName } = form.values;
  const known = lists.data ?? [];
  // The saved list stays shown while the lists load (or if X no longer returns it).
  const saved =
    listId && !known.some((list) => list.listId === listId) ? [{ listId, listName: listName || listId }] : [];
  const options = [
    { value: '', label: lists.isPending ? 'Loading lists…' : 'Choose a list' },
    ...[...saved, ...known].map((list) => ({ value: list.listId, label: list.listName })),
  ];
  return (
    <SelectField
      label="List"
      name="listId"
      value={listId ?? ''}
      options={options}
      error={lists.error ? errorMessage(lists.error) : undefined}
      hint={lists.data?.length === 0 ? 'This account has no lists yet.' : undefined}
      onChange={(event) => {
        const list = known.find((item) => item.listId === event.target.value);
        form.merge(
          list
            ? { listId: list.listId, listName: list.listName }
            : { listId: undefined, listName: undefined },
        );
      }}
    />
  );
}
