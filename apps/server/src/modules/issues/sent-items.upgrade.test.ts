import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { SOURCE_TYPES, sourceKindOf, storedSourceSchema } from '@digest/contracts';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER } from '#server/db/migrate';
import { createDatabaseAt, UPGRADE_TEST_TIMEOUT_MS } from '#server-test/upgrade-database';
import { sentSince } from './sent-items.repository';
import { recordSentItems } from './test-support';

// Migrating a fresh database twice (up to the old release, then on) takes a while on a busy machine.
const MIGRATING_TIMEOUT_MS = 90_000;

/** The kinds the migration gives "Only new items": every kind that remembers its items, and no other. */
async function kindsTheMigrationConverts() {
  const migration = await readFile(path.join(MIGRATIONS_FOLDER, '0016_sent_items.sql'), 'utf8');
  const lists = [...migration.matchAll(/IN \(([^)]*)\) AND NOT source \? 'onlyNew'/g)].map((match) =>
    (match[1] ?? '').split(',').map((type) => type.trim().replace(/'/g, '')),
  );
  expect(lists).toHaveLength(2);
  expect(lists[1]).toEqual(lists[0]);
  return lists[0] ?? [];
}

describe('upgrading to "Every item once" (0016_sent_items)', { timeout: UPGRADE_TEST_TIMEOUT_MS }, () => {
  it('converts exactly the kinds that remember their items', async () => {
    const remembered = SOURCE_TYPES.filter((type) => sourceKindOf(type).remembers !== undefined);
    expect((await kindsTheMigrationConverts()).sort()).toEqual([...remembered].sort());
  });

  it(
    'gives stored list sources "Only new items" on, leaves the other sources and their order as they were, and every digest the option off',
    async () => {
      const old = await createDatabaseAt('0015_final_dot');
      try {
        const [user] = (await old.sql(
          `insert into users (email, method) values ('old@example.com', 'email') returning user_id`,
        )) as { user_id: string }[];
        const sources = [
          {
            type: 'RSS',
            name: '',
            showHeading: true,
            feedLink: 'https://blog.example.org/feed.xml',
            sourceName: '',
            numberOfPosts: 6,
            images: 'show',
            postBody: 'paragraph',
            layout: 2,
          },
          { type: 'DATE', name: '', showHeading: true },
          {
            type: 'HACKER_NEWS',
            name: 'Hacker News',
            showHeading: true,
            numberOfPosts: 6,
            story: 'top',
            askHN: false,
            showHN: false,
            layout: 2,
          },
          {
            type: 'WEATHER',
            name: '',
            showHeading: true,
            forecastIntervalType: 5,
            temperatureType: 'F',
            latitude: 52.52,
            longitude: 13.4,
            locationName: 'Berlin',
          },
        ];
        const [digest] = (await old.sql(
          `insert into digests (user_id, name, sources) values ($1, 'Morning', $2) returning digest_id`,
          [user?.user_id, JSON.stringify(sources)],
        )) as { digest_id: string }[];
        await old.sql(`insert into digests (user_id, name, sources) values ($1, 'Empty', '[]')`, [
          user?.user_id,
        ]);
        await old.sql(`insert into digest_drafts (user_id, name, sources) values ($1, 'Draft', $2)`, [
          user?.user_id,
          JSON.stringify([sources[2], sources[1]]),
        ]);

        await old.upgrade();

        const rows = (await old.sql(
          'select name, sources, send_only_when_new from digests order by name',
        )) as { name: string; sources: object[]; send_only_when_new: boolean }[];
        expect(rows.map((row) => [row.name, row.send_only_when_new])).toEqual([
          ['Empty', false],
          ['Morning', false],
        ]);
        expect(rows[0]?.sources).toEqual([]);
        expect(rows[1]?.sources).toEqual([
          { ...sources[0], onlyNew: true },
          sources[1],
          { ...sources[2], onlyNew: true },
          sources[3],
        ]);
        const [draft] = (await old.sql('select sources from digest_drafts')) as { sources: object[] }[];
        expect(draft?.sources).toEqual([{ ...sources[2], onlyNew: true }, sources[1]]);
        // The new code reads them: every stored source is what the contracts describe.
        for (const source of rows[1]?.sources ?? []) expect(storedSourceSchema.parse(source)).toEqual(source);

        // And the new table works on the upgraded database.
        const key = { sourceKey: 'feed', identity: 'item' };
        const at = new Date();
        const since = new Date(at.getTime() - 1000);
        const digestId = digest?.digest_id ?? '';
        expect(await recordSentItems(old.db, { digestId, keys: [key], at, since })).toBe(true);
        expect([...(await sentSince(old.db, digestId, [key], since))]).toEqual(['feed item']);
      } finally {
        await old.close();
      }
    },
    MIGRATING_TIMEOUT_MS,
  );
});

describe('upgrading to sent items deleted with their digest by a trigger (0023_sent_items_follow_their_digest)', {
  timeout: UPGRADE_TEST_TIMEOUT_MS,
}, () => {
  it(
    'keeps every remembered item, and deletes a digest’s items with it: one digest, or an account’s all',
    async () => {
      const old = await createDatabaseAt('0022_issue_text_lz4');
      try {
        const userOf = async (email: string) =>
          (
            (await old.sql(`insert into users (email, method) values ($1, 'email') returning user_id`, [
              email,
            ])) as {
              user_id: string;
            }[]
          )[0]?.user_id;
        const digestOf = async (userId: string | undefined, name: string) =>
          (
            (await old.sql(
              `insert into digests (user_id, name, sources) values ($1, $2, '[]') returning digest_id`,
              [userId, name],
            )) as { digest_id: string }[]
          )[0]?.digest_id ?? '';
        const ann = await userOf('ann@example.com');
        const bob = await userOf('bob@example.com');
        const morning = await digestOf(ann, 'Morning');
        const evening = await digestOf(ann, 'Evening');
        const bobs = await digestOf(bob, 'Bob’s');
        for (const digestId of [morning, evening, bobs]) {
          await old.sql(
            `insert into digest_sent_items (digest_id, source_key, identity, first_sent_at)
             select $1, 'feed', 'item-' || n, now() from generate_series(1, 3) n`,
            [digestId],
          );
        }

        await old.upgrade();

        const remembered = async () =>
          (
            (await old.sql(
              'select digest_id, count(*)::int as items from digest_sent_items group by digest_id',
            )) as { digest_id: string; items: number }[]
          )
            .map((row) => [row.digest_id, row.items])
            .sort();
        expect(await remembered()).toEqual(
          [
            [morning, 3],
            [evening, 3],
            [bobs, 3],
          ].sort(),
        );
        // The new code records items on the upgraded database.
        const at = new Date();
        const since = new Date(at.getTime() - 1000);
        expect(
          await recordSentItems(old.db, {
            digestId: evening,
            keys: [{ sourceKey: 'feed', identity: 'new' }],
            at,
            since,
          }),
        ).toBe(true);

        await old.sql('delete from digests where digest_id = $1', [morning]);
        expect(await remembered()).toEqual(
          [
            [evening, 4],
            [bobs, 3],
          ].sort(),
        );
        await old.sql('delete from users where user_id = $1', [ann]);
        expect(await remembered()).toEqual([[bobs, 3]]);
      } finally {
        await old.close();
      }
    },
    MIGRATING_TIMEOUT_MS,
  );
});
