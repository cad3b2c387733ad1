import {
  DIGEST_MESSAGES,
  folderTooLargeMessage,
  folderTooSmallMessage,
  type OpmlImport,
} from '@digest/contracts';
import { describe, expect, it } from 'vitest';
import {
  chosenFeeds,
  feedKey,
  feedsProblem,
  folderDigestsBody,
  folderProblem,
  initialFolderSelection,
} from './selection';

const feeds = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, n) => ({
    title: `${prefix} ${n}`,
    xmlUrl: `https://example.com/${prefix}/${n}`,
    htmlUrl: '',
  }));

const PREVIEW: OpmlImport = {
  title: 'Export',
  feedCount: 26,
  refusedCount: 0,
  folders: [
    { name: 'Tech', feeds: feeds(3, 'tech'), refused: [] },
    { name: 'Big', feeds: feeds(21, 'big'), refused: [] },
    { name: '', feeds: feeds(2, 'loose'), refused: [] },
  ],
};

describe('picking feeds into the builder', () => {
  it('takes the ticked feeds in the order of the file', () => {
    const ticked = new Set([feedKey(2, 0), feedKey(0, 1)]);
    expect(chosenFeeds(PREVIEW, ticked).map((feed) => feed.title)).toEqual(['tech 1', 'loose 0']);
  });

  it('refuses more feeds than the digest has room for, saying how many fit', () => {
    expect(feedsProblem(0, 0)).toBeNull();
    expect(feedsProblem(3, 3)).toBeNull();
    expect(feedsProblem(4, 3)).toBe(`${DIGEST_MESSAGES.maxSources}: you can add 3 more feeds.`);
    expect(feedsProblem(2, 1)).toBe(`${DIGEST_MESSAGES.maxSources}: you can add 1 more feed.`);
  });
});

describe('one digest per folder', () => {
  it('starts with the folders that can be digests ticked (3–20 feeds), every feed ticked', () => {
    const { folders, feeds: ticked } = initialFolderSelection(PREVIEW);
    expect([...folders]).toEqual([0]);
    expect(ticked.size).toBe(26);
  });

  it('sends the ticked folders with their ticked feeds, title and URL only', () => {
    const ticked = new Set([feedKey(0, 0), feedKey(0, 2), feedKey(1, 0)]);
    expect(folderDigestsBody(PREVIEW, new Set([0]), ticked)).toEqual({
      folders: [
        {
          name: 'Tech',
          feeds: [
            { title: 'tech 0', xmlUrl: 'https://example.com/tech/0' },
            { title: 'tech 2', xmlUrl: 'https://example.com/tech/2' },
          ],
        },
      ],
    });
  });

  it('names a folder past 20 feeds or under 3 with the contracts’ message', () => {
    const big = { name: 'Big', feeds: feeds(21, 'big') };
    expect(folderProblem(big)).toBe(folderTooLargeMessage('Big', 21));
    expect(folderProblem({ name: '', feeds: feeds(2, 'x') })).toBe(folderTooSmallMessage('', 2));
    expect(folderProblem({ name: 'Tech', feeds: feeds(20, 'x') })).toBeNull();
  });
});
