import { describe, expect, it } from 'vitest';
import { createDatabaseAt, UPGRADE_TEST_TIMEOUT_MS } from '#server-test/upgrade-database';

// Migrating a fresh database twice (up to the old release, then on) takes a while on a busy machine.
const MIGRATING_TIMEOUT_MS = 90_000;

/** An issue large enough to be compressed (PostgreSQL compresses values of ≈ 2 kB and more). */
const issueHtml = (label: string) =>
  `<html><body>${Array.from({ length: 400 }, (_, i) => `<p>${label} item ${i}</p>`).join('')}</body></html>`;

describe('upgrading to lz4-compressed issues (0022_issue_text_lz4)', {
  timeout: UPGRADE_TEST_TIMEOUT_MS,
}, () => {
  it(
    'keeps the issues stored before as they were, and compresses new ones with lz4 where the server has it',
    async () => {
      const old = await createDatabaseAt('0021_issue_runs_build_id');
      try {
        const [user] = (await old.sql(
          `insert into users (email, method) values ('old@example.com', 'email') returning user_id`,
        )) as { user_id: string }[];
        const [digest] = (await old.sql(
          `insert into digests (user_id, name, sources) values ($1, 'Morning', '[]') returning digest_id`,
          [user?.user_id],
        )) as { digest_id: string }[];
        const store = (number: number, html: string) =>
          old.sql(
            `insert into digest_builds (digest_id, build_number, html, text, public_html)
             values ($1, $2, $3, $4, $3)`,
            [digest?.digest_id, number, html, `text of ${number} `.repeat(300)],
          );
        await store(1, issueHtml('old'));

        await old.upgrade();
        await store(2, issueHtml('new'));

        const rows = (await old.sql(
          `select build_number, html, text, public_html, pg_column_compression(html) as html_method,
             pg_column_compression(text) as text_method, pg_column_compression(public_html) as public_method
           from digest_builds order by build_number`,
        )) as Record<string, unknown>[];
        expect(rows.map((row) => [row.build_number, row.html, row.public_html, row.text])).toEqual([
          [1, issueHtml('old'), issueHtml('old'), 'text of 1 '.repeat(300)],
          [2, issueHtml('new'), issueHtml('new'), 'text of 2 '.repeat(300)],
        ]);
        const newMethod = old.handle.kind === 'postgres' ? 'lz4' : 'pglz';
        expect(rows.map((row) => [row.html_method, row.text_method, row.public_method])).toEqual([
          ['pglz', 'pglz', 'pglz'],
          [newMethod, newMethod, newMethod],
        ]);
      } finally {
        await old.close();
      }
    },
    MIGRATING_TIMEOUT_MS,
  );
});
