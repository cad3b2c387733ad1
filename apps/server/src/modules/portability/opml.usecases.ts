import {
  digestCreateSchema,
  type OpmlFeed,
  type OpmlFolderDigests,
  type OpmlImport,
  type OpmlRefusedFeed,
  opmlFeedUrlSchema,
} from '@digest/contracts';
import { digestsErrors } from '#server/modules/digests/digests.errors';
import { findOwnedDigest } from '#server/modules/digests/digests.repository';
import * as digests from '#server/modules/digests/digests.usecases';
import { type AddressPolicy, unreachableUrlReason } from '#server/platform/safe-fetch/address-policy';
import { parseOpml, writeOpml } from '#server/sources/rss/opml';
import { portabilityErrors } from './portability.errors';

export interface OpmlDeps extends digests.DigestsDeps {
  /** FETCH_ALLOW_PRIVATE_HOSTS: the hosts safe-fetch may reach although private. */
  addressPolicy: AddressPolicy;
}

/** Why a feed of a file cannot be added (the RSS kind's URL rule, then safe-fetch's), or undefined. */
function refusalOf(feed: Pick<OpmlFeed, 'xmlUrl'>, policy: AddressPolicy): string | undefined {
  const checked = opmlFeedUrlSchema.safeParse(feed.xmlUrl);
  if (!checked.success) return checked.error.issues[0]?.message;
  return unreachableUrlReason(feed.xmlUrl, policy);
}

/**
 * `POST /opml/import`: the folders and feeds of an OPML file, each feed that cannot be added set apart
 * with its reason. Nothing is stored: the builder or the folder picker decides what to keep.
 */
export function previewOpml(deps: Pick<OpmlDeps, 'addressPolicy'>, bytes: Uint8Array): OpmlImport {
  const document = parseOpml(bytes);
  let feedCount = 0;
  let refusedCount = 0;
  const folders = document.folders.map((folder) => {
    const feeds: OpmlFeed[] = [];
    const refused: OpmlRefusedFeed[] = [];
    for (const feed of folder.feeds) {
      const reason = refusalOf(feed, deps.addressPolicy);
      if (reason) refused.push({ title: feed.title, xmlUrl: feed.xmlUrl, reason });
      else feeds.push(feed);
    }
    feedCount += feeds.length;
    refusedCount += refused.length;
    return { name: folder.name, feeds, refused };
  });
  return { title: document.title, folders, feedCount, refusedCount };
}

/**
 * `POST /opml/digests`: one digest per chosen folder (its name, its feeds as RSS blocks, the
 * docs/product.md §3 defaults), created all together or not at all: a refused feed or too little room
 * under the 100-digest limit creates none.
 */
export async function createFolderDigests(deps: OpmlDeps, userId: string, body: OpmlFolderDigests) {
  const refused = body.folders.flatMap((folder) =>
    folder.feeds.flatMap((feed) => {
      const reason = refusalOf(feed, deps.addressPolicy);
      return reason ? [{ ...feed, reason }] : [];
    }),
  );
  if (refused.length > 0) throw portabilityErrors.unsafeFeeds(refused);
  const bodies = body.folders.map((folder) =>
    digestCreateSchema.parse({
      name: folder.name,
      sources: folder.feeds.map((feed) => ({ type: 'RSS', feedLink: feed.xmlUrl, sourceName: feed.title })),
    }),
  );
  const ids = await digests.createDigests(deps, userId, bodies);
  const created = await Promise.all(ids.map((id) => findOwnedDigest(deps.db, userId, id)));
  return {
    digests: created.flatMap((row) =>
      row ? [{ digestId: row.digestId, name: row.name, sourceCount: row.sources.length }] : [],
    ),
  };
}

/** `GET /digests/{id}/opml`: the digest's RSS feeds as OPML 2.0, and a file name for it. */
export async function exportDigestOpml(
  deps: Pick<OpmlDeps, 'db' | 'clock'>,
  userId: string,
  digestId: string,
) {
  const row = await findOwnedDigest(deps.db, userId, digestId);
  if (!row) throw digestsErrors.digestNotFound();
  const feeds = row.sources.flatMap((source) =>
    source.type === 'RSS' ? [{ title: source.sourceName, xmlUrl: source.feedLink, htmlUrl: '' }] : [],
  );
  return { name: row.name, opml: writeOpml(row.name, feeds, deps.clock.now()) };
}
