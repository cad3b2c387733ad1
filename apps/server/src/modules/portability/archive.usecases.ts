import type { Database } from '#server/db/client';
import { listVisibleSubscribers } from '#server/modules/subscribers/subscribers.repository';
import type { Clock } from '#server/platform/clock';
import * as repository from './portability.repository';

export interface ArchiveDeps {
  db: Database;
  clock: Clock;
}

/** Issues read per query: an account may hold thousands, each up to ~100 KB of HTML. */
const ISSUES_PER_PAGE = 20;
export const ARCHIVE_FORMAT = 'digest-account-archive';
export const ARCHIVE_VERSION = 1;

/**
 * `GET /account/archive`: everything the account made, as one JSON document written piece by piece, so an
 * account with years of issues never sits in memory whole: the profile, every digest with its settings,
 * friends and issues (their HTML), and the drafts. Never a password hash, a session, a connected account's
 * token or a share token.
 */
export async function* writeAccountArchive(deps: ArchiveDeps, userId: string): AsyncGenerator<string> {
  const account = await repository.findAccount(deps.db, userId);
  const head = { format: ARCHIVE_FORMAT, version: ARCHIVE_VERSION, exportedAt: deps.clock.now(), account };
  yield `${JSON.stringify(head).slice(0, -1)},"digests":[`;
  const digests = await repository.listDigestSettings(deps.db, userId);
  for (const [index, digest] of digests.entries()) {
    const subscribers = await listVisibleSubscribers(deps.db, userId, digest.digestId);
    yield `${index === 0 ? '' : ','}${JSON.stringify({ ...digest, subscribers }).slice(0, -1)},"issues":[`;
    let after = 0;
    let first = true;
    for (;;) {
      const page = await repository.pageOfIssues(deps.db, userId, digest.digestId, after, ISSUES_PER_PAGE);
      for (const issue of page) {
        yield `${first ? '' : ','}${JSON.stringify(issue)}`;
        first = false;
      }
      const last = page.at(-1);
      if (!last || page.length < ISSUES_PER_PAGE) break;
      after = last.buildNumber;
    }
    yield ']}';
  }
  yield `],"drafts":${JSON.stringify(await repository.listDrafts(deps.db, userId))}}`;
}
