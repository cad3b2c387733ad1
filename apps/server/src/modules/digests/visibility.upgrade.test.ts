import { describe, expect, it } from 'vitest';
import { createDatabaseAt, UPGRADE_TEST_TIMEOUT_MS } from '#server-test/upgrade-database';
import { findPublicBuildHtml, findPublicProfile, updateVisibility } from './digests.repository';
import { getShareHtml } from './share.routes';

const SOURCES = JSON.stringify([{ type: 'STRIPE', name: '', showHeading: true }]);

describe('upgrading to private by default (0010_digest_visibility)', {
  timeout: UPGRADE_TEST_TIMEOUT_MS,
}, () => {
  it('keeps every digest and issue, makes every digest private, and never shows an issue built before publicly', async () => {
    const old = await createDatabaseAt('0007_released_usernames');
    try {
      // What the previous release wrote: digests public by their id, issues holding revenue figures.
      const [user] = (await old.sql(
        `insert into users (email, method, username) values ('ann@example.com', 'email', 'ann') returning user_id`,
      )) as { user_id: string }[];
      const digestIds: string[] = [];
      for (const [name, active] of [
        ['Money', true],
        ['Paused', false],
      ] as const) {
        const [row] = (await old.sql(
          `insert into digests (user_id, name, active, sources) values ($1, $2, $3, $4::jsonb) returning digest_id`,
          [user?.user_id, name, active, SOURCES],
        )) as { digest_id: string }[];
        digestIds.push(row?.digest_id ?? '');
      }
      const [money = '', paused = ''] = digestIds;
      for (const buildNumber of [1, 2]) {
        await old.sql(
          `insert into digest_builds (digest_id, build_number, html, text) values ($1, $2, $3, $4)`,
          [money, buildNumber, `<p>Revenue $1,720.60 in issue ${buildNumber}</p>`, 'Revenue $1,720.60'],
        );
      }

      await old.upgrade();

      const digests = await old.sql(
        'select digest_id, name, active, visibility, share_token from digests order by name',
      );
      expect(digests).toEqual([
        { digest_id: money, name: 'Money', active: true, visibility: 'private', share_token: null },
        { digest_id: paused, name: 'Paused', active: false, visibility: 'private', share_token: null },
      ]);
      const builds = await old.sql(
        'select build_number, html, text, public_html from digest_builds order by build_number',
      );
      expect(builds).toEqual(
        [1, 2].map((n) => ({
          build_number: n,
          html: `<p>Revenue $1,720.60 in issue ${n}</p>`,
          text: 'Revenue $1,720.60',
          public_html: null,
        })),
      );

      // The public profile lists nothing until the owner turns a link on.
      expect((await findPublicProfile(old.db, 'ann'))?.digests).toEqual([]);
      // Turned on, the digest is listed, but its old issues have no public copy and stay hidden.
      const on = await updateVisibility(old.db, user?.user_id ?? '', money, {
        newToken: 'T'.repeat(43),
        updatedAt: new Date(),
      });
      expect(on).toEqual({ visibility: 'public', shareToken: 'T'.repeat(43) });
      expect((await findPublicProfile(old.db, 'ann'))?.digests).toEqual([
        { shareToken: 'T'.repeat(43), name: 'Money', latestBuildNumber: null },
      ]);
      expect(await findPublicBuildHtml(old.db, 'T'.repeat(43))).toBeUndefined();
      for (const buildNumber of [undefined, '1', '2']) {
        await expect(getShareHtml(old.db, 'T'.repeat(43), buildNumber)).rejects.toMatchObject({
          statusCode: 404,
        });
        await expect(getShareHtml(old.db, money, buildNumber)).rejects.toMatchObject({ statusCode: 404 });
      }
    } finally {
      await old.close();
    }
  });
});
