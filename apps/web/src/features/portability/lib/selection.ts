import {
  DIGEST_MESSAGES,
  MAX_SOURCES,
  MIN_SOURCES,
  type OpmlFeed,
  type OpmlFolderDigestsInput,
  type OpmlImport,
  opmlFolderDigestsSchema,
} from '@digest/contracts';

/** A feed's place in the preview: folder index and feed index. */
export const feedKey = (folder: number, feed: number) => `${folder}:${feed}`;

/** The feeds ticked, in the file's order. */
export function chosenFeeds(preview: OpmlImport, ticked: ReadonlySet<string>): OpmlFeed[] {
  return preview.folders.flatMap((folder, f) => folder.feeds.filter((_, n) => ticked.has(feedKey(f, n))));
}

/** Builder: what stops adding the ticked feeds, or null. `room`: blocks the digest can still take. */
export function feedsProblem(count: number, room: number): string | null {
  if (count === 0) return null;
  if (count > room)
    return `${DIGEST_MESSAGES.maxSources}: you can add ${room} more ${room === 1 ? 'feed' : 'feeds'}.`;
  return null;
}

/** Folders mode: every folder starts ticked when it can be a digest (3–20 feeds), with all its feeds. */
export function initialFolderSelection(preview: OpmlImport) {
  const folders = new Set<number>();
  const feeds = new Set<string>();
  for (const [f, folder] of preview.folders.entries()) {
    for (const n of folder.feeds.keys()) feeds.add(feedKey(f, n));
    if (folder.feeds.length >= MIN_SOURCES && folder.feeds.length <= MAX_SOURCES) folders.add(f);
  }
  return { folders, feeds };
}

/** The request for the ticked folders with their ticked feeds. */
export function folderDigestsBody(
  preview: OpmlImport,
  folders: ReadonlySet<number>,
  feeds: ReadonlySet<string>,
): OpmlFolderDigestsInput {
  return {
    folders: preview.folders.flatMap((folder, f) =>
      folders.has(f)
        ? [
            {
              name: folder.name,
              feeds: folder.feeds
                .filter((_, n) => feeds.has(feedKey(f, n)))
                .map(({ title, xmlUrl }) => ({ title, xmlUrl })),
            },
          ]
        : [],
    ),
  };
}

/**
 * What stops a ticked folder from being a digest (past 20 feeds, under 3), by the contracts' rule the
 * server applies too; null when it can be one.
 */
export function folderProblem(folder: OpmlFolderDigestsInput['folders'][number]): string | null {
  const checked = opmlFolderDigestsSchema.safeParse({ folders: [folder] });
  return checked.success ? null : (checked.error.issues[0]?.message ?? null);
}
