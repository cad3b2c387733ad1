import * as z from 'zod/mini';
import { MAX_DIGESTS, MAX_SOURCES, MIN_SOURCES } from './digest-limits';
import { DIGEST_MESSAGES, digestNameSchema } from './digests';
import { httpUrl, SOURCE_NAME_MAX_LENGTH } from './source-kinds/fields';

// ---------------------------------------------------------------------------------------------------
// OPML import and export, the account's archive (issue 16 "OPML and portability")
// ---------------------------------------------------------------------------------------------------

/** An OPML upload: far more than any feed reader's export (a thousand feeds is about 200 KB). */
export const OPML_MAX_BYTES = 1024 * 1024;
/** Outlines (feeds and folders) in one file. */
export const OPML_MAX_OUTLINES = 1000;

export const OPML_MESSAGES = {
  tooLarge: 'This file is larger than 1 MB. An OPML export of feeds is much smaller: choose another file.',
  empty: 'Choose an OPML file to import.',
  notOpml: 'This file is not OPML. Export your subscriptions from your feed reader as OPML and try again.',
  noBody: 'This OPML file has no <body>, so it lists no feeds.',
  noFeeds: 'This OPML file lists no feeds (no outline has an xmlUrl).',
  tooManyOutlines: `This OPML file has more than ${OPML_MAX_OUTLINES} outlines. Split it and import the parts.`,
  tooDeep: 'This OPML file nests its folders too deeply to be read.',
  unendedDoctype: 'This OPML file begins a DOCTYPE and never ends it.',
  noFolders: 'Choose at least one folder.',
  unsafeFeeds: 'Some feeds cannot be added. Untick them and try again:',
} as const;

/** The message of a folder with more feeds than a digest may have (docs/product.md §9: 20 sources). */
export const folderTooLargeMessage = (name: string, feeds: number) =>
  `The folder "${name || 'Not in a folder'}" has ${feeds} feeds; a Digest can have at most ${MAX_SOURCES}. Untick some feeds or split the folder.`;
/** The message of a folder with fewer feeds than a digest needs (docs/product.md §9: at least 3). */
export const folderTooSmallMessage = (name: string, feeds: number) =>
  `The folder "${name || 'Not in a folder'}" has ${feeds} ${feeds === 1 ? 'feed' : 'feeds'}; a Digest needs at least ${MIN_SOURCES} sources.`;
/** The creation of `wanted` digests would pass the 100-digest limit. */
export const noRoomForDigestsMessage = (wanted: number, room: number) =>
  `You can have at most ${MAX_DIGESTS} Digests: there is room for ${room} more, not ${wanted}. Choose fewer folders or delete a Digest.`;

export const opmlFeedSchema = z.object({
  title: z.string(),
  xmlUrl: z.string(),
  htmlUrl: z.string(),
});
export type OpmlFeed = z.infer<typeof opmlFeedSchema>;

/** A feed of the file that cannot be added, and why (a private address, not http(s), not a URL). */
export const opmlRefusedFeedSchema = z.object({
  title: z.string(),
  xmlUrl: z.string(),
  reason: z.string(),
});
export type OpmlRefusedFeed = z.infer<typeof opmlRefusedFeedSchema>;

/** A folder of the file ('' for feeds outside any folder; nested folders read "Parent / Child"). */
export const opmlFolderSchema = z.object({
  name: z.string(),
  feeds: z.array(opmlFeedSchema),
  refused: z.array(opmlRefusedFeedSchema),
});
export type OpmlFolder = z.infer<typeof opmlFolderSchema>;

/** `POST /api/opml/import`: what the file holds; nothing is stored. */
export const opmlImportResponseSchema = z.object({
  title: z.string(),
  folders: z.array(opmlFolderSchema),
  feedCount: z.number().check(z.int()),
  refusedCount: z.number().check(z.int()),
});
export type OpmlImport = z.infer<typeof opmlImportResponseSchema>;

/** A feed's address in an OPML file: the RSS kind's rule for its feed link. */
export const opmlFeedUrlSchema = httpUrl('Feed link');

/** A feed chosen for a digest: its URL by the RSS kind's own rule, its title as the block's name. */
const chosenFeedSchema = z.pipe(
  z.strictObject({
    title: z.string({ error: 'Title must be text' }).check(z.maxLength(1000)),
    xmlUrl: opmlFeedUrlSchema,
    /** Sent back as the import answered it; a block keeps only the feed. */
    htmlUrl: z.optional(z.string({ error: 'Site link must be text' }).check(z.maxLength(2048))),
  }),
  z.transform((feed) => ({
    title: feed.title.replace(/\s+/g, ' ').trim().slice(0, SOURCE_NAME_MAX_LENGTH),
    xmlUrl: feed.xmlUrl,
  })),
);

const folderDigestSchema = z
  .strictObject({
    name: digestNameSchema,
    feeds: z.array(chosenFeedSchema).check(z.maxLength(200)),
  })
  .check(
    z.superRefine((folder, context) => {
      const count = folder.feeds.length;
      if (count > MAX_SOURCES)
        context.addIssue({
          code: 'custom',
          path: ['feeds'],
          message: folderTooLargeMessage(folder.name, count),
        });
      if (count < MIN_SOURCES)
        context.addIssue({
          code: 'custom',
          path: ['feeds'],
          message: folderTooSmallMessage(folder.name, count),
        });
    }),
  );

/** `POST /api/opml/digests`: one digest per folder, each with the docs/product.md §3 defaults. */
export const opmlFolderDigestsSchema = z.strictObject({
  folders: z
    .array(folderDigestSchema)
    .check(
      z.minLength(1, { error: OPML_MESSAGES.noFolders }),
      z.maxLength(MAX_DIGESTS, { error: DIGEST_MESSAGES.maxDigests }),
    ),
});
export type OpmlFolderDigestsInput = z.input<typeof opmlFolderDigestsSchema>;
export type OpmlFolderDigests = z.output<typeof opmlFolderDigestsSchema>;

export const opmlFolderDigestsResponseSchema = z.object({
  digests: z.array(
    z.object({ digestId: z.string(), name: z.string(), sourceCount: z.number().check(z.int()) }),
  ),
});
