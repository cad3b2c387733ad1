import { createHash } from 'node:crypto';
import { type ItemDiscussion, type SourceType, sourceKindOf } from '@digest/contracts';
import { type DigestBlockInput, isBlockOf } from '@digest/email';
import { itemIdentity, normaliseLink } from './item-identity';
import type { SentItemKey } from './sent-items.repository';

/**
 * docs/product.md §3 "Every item once": which items of an issue's list sources an earlier issue of the
 * digest carried, which to leave out, which story two sources share, and what to record as carried.
 */

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/** A block's remembered items: its source's key and each item's hashed identity (none: never remembered). */
interface BlockItems {
  sourceKey: string;
  identities: (string | undefined)[];
  links: (string | undefined)[];
  discussions: (string | undefined)[];
}

/**
 * The items of a block's content, by the content object: an issue asks three times (what to look up, what
 * to leave out, what to record), and digests reading one feed may share its content. Contents are never
 * changed once made (leaving items out makes a new one), so an entry never goes stale; it goes with them.
 */
const itemsByContent = new WeakMap<object, Omit<BlockItems, 'sourceKey'>>();
const sourceKeys = new WeakMap<object, string>();

function itemsOf(block: DigestBlockInput): BlockItems | undefined {
  const remembers = sourceKindOf(block.source.type).remembers;
  if (!remembers || !block.content) return undefined;
  let items = itemsByContent.get(block.content);
  if (!items) {
    const parts = remembers.parts(block.content);
    items = {
      identities: parts.map((part) => {
        const identity = itemIdentity(part);
        return identity === undefined ? undefined : sha256(identity);
      }),
      links: parts.map((part) => (part.link?.trim() ? normaliseLink(part.link) : undefined)),
      discussions: parts.map((part) => part.discussion || undefined),
    };
    itemsByContent.set(block.content, items);
  }
  let sourceKey = sourceKeys.get(block.source);
  if (!sourceKey) {
    sourceKey = sha256(`${block.source.type}\n${remembers.sourceKey(block.source)}`);
    sourceKeys.set(block.source, sourceKey);
  }
  return { sourceKey, ...items };
}

/** A list source leaves out what earlier issues carried unless its owner turned "Only new items" off. */
const isOnlyNew = (block: DigestBlockInput) => (block.source as { onlyNew?: boolean }).onlyNew !== false;

const pairOf = (sourceKey: string, identity: string) => `${sourceKey} ${identity}`;

/** The issue's list items, to ask which of them earlier issues carried (one query for the whole issue). */
export function rememberedKeysOf(blocks: readonly DigestBlockInput[]): SentItemKey[] {
  return blocks.flatMap((block) => {
    const items = itemsOf(block);
    if (!items) return [];
    const { sourceKey } = items;
    return items.identities.flatMap((identity) => (identity ? [{ sourceKey, identity }] : []));
  });
}

/**
 * The kinds whose items are stories linking elsewhere: the same link in two of them is one story, shown
 * once in the first with a link to the other's discussion. Videos, launches and tweets are the thing
 * itself, not a link to it, so they are never merged.
 */
const STORY_KINDS = new Set<SourceType>(['HACKER_NEWS', 'RSS', 'REDDIT']);

const DISCUSSION_LABELS: Partial<Record<SourceType, string>> = { HACKER_NEWS: 'HN discussion' };

function discussionLabel(block: DigestBlockInput): string {
  return (
    DISCUSSION_LABELS[block.source.type] ??
    sourceKindOf(block.source.type).title(block.source, block.content as never)
  );
}

/** Adds the discussions to the item at `index` of a story block (copies: the content may be shared). */
function withDiscussions(block: DigestBlockInput, index: number, added: ItemDiscussion[]): DigestBlockInput {
  const add = <Item extends { discussions?: ItemDiscussion[] }>(items: Item[]) =>
    items.map((item, at) =>
      at === index ? { ...item, discussions: [...(item.discussions ?? []), ...added] } : item,
    );
  if (isBlockOf(block, 'HACKER_NEWS') && block.content)
    return { ...block, content: { ...block.content, items: add(block.content.items) } };
  if (isBlockOf(block, 'RSS') && block.content)
    return { ...block, content: { ...block.content, items: add(block.content.items) } };
  if (isBlockOf(block, 'REDDIT') && block.content)
    return { ...block, content: { ...block.content, posts: add(block.content.posts) } };
  return block;
}

export interface NewItemsIssue {
  blocks: DigestBlockInput[];
  /** Items of list sources that no earlier issue carried (what "send only when something is new" counts). */
  newItems: number;
  /** The same by block (the index of `blocks`; 0 for a block that is not a list), for "at least N new items". */
  newItemsOf: number[];
  /** Whether the issue has list sources at all (figures alone are never "new"). */
  hasLists: boolean;
  /** Whether some source had items and all of them came before ("Nothing new since the last issue."). */
  emptiedByOnlyNew: boolean;
  /**
   * By block (the index of `blocks`) and item identity: the keys to record when that item is in the mail,
   * its own and those of the same story in later sources, shown once with it.
   */
  carried: Map<number, Map<string, SentItemKey[]>>;
  /** What earlier issues carried ("sourceKey identity"): shown again only where "Only new items" is off. */
  sentBefore: ReadonlySet<string>;
}

/**
 * The issue as "Every item once" makes it from the fetched blocks and what earlier issues carried
 * (`sent`, "sourceKey identity" pairs): each "Only new items" source without the items it carried before
 * (`nothingNew` when none is left), then each story shown once, in the first source that has it, with the
 * other sources' discussions beside it.
 */
export function newItemsIssue(
  fetched: readonly DigestBlockInput[],
  sent: ReadonlySet<string>,
): NewItemsIssue {
  const blocks: DigestBlockInput[] = [];
  const carried = new Map<number, Map<string, SentItemKey[]>>();
  /** Where each story (normalised link) is shown: its block, its place there, its identity. */
  const stories = new Map<string, { block: number; item: number; identity: string }>();
  let newItems = 0;
  const newItemsOf: number[] = [];
  let hasLists = false;
  let emptiedByOnlyNew = false;

  for (const block of fetched) {
    const items = itemsOf(block);
    const remembers = sourceKindOf(block.source.type).remembers;
    const slot = newItemsOf.push(0) - 1;
    if (!items || !remembers || !block.content) {
      blocks.push(block);
      continue;
    }
    hasLists = true;
    const at = blocks.length;
    const isStory = STORY_KINDS.has(block.source.type);
    const blockCarried = new Map<string, SentItemKey[]>();
    carried.set(at, blockCarried);
    const keep: boolean[] = [];
    let shown = 0;
    let sentBefore = 0;
    for (const [index, identity] of items.identities.entries()) {
      const before = identity !== undefined && sent.has(pairOf(items.sourceKey, identity));
      if (!before) {
        newItems += 1;
        newItemsOf[slot] = (newItemsOf[slot] ?? 0) + 1;
      }
      if (before && isOnlyNew(block)) {
        sentBefore += 1;
        keep.push(false);
        continue;
      }
      const link = isStory ? items.links[index] : undefined;
      const story = link === undefined ? undefined : stories.get(link);
      if (story && story.block !== at && identity) {
        // Shown in an earlier source: this copy goes; its discussion goes beside the story there, and it
        // counts as carried when that story is in the mail.
        carried.get(story.block)?.get(story.identity)?.push({ sourceKey: items.sourceKey, identity });
        const url = items.discussions[index];
        if (url) {
          const discussion = { label: discussionLabel(block), url };
          blocks[story.block] = withDiscussions(blocks[story.block] as DigestBlockInput, story.item, [
            discussion,
          ]);
        }
        keep.push(false);
        continue;
      }
      if (identity) {
        blockCarried.set(identity, [{ sourceKey: items.sourceKey, identity }]);
        if (link !== undefined && !story) stories.set(link, { block: at, item: shown, identity });
      }
      shown += 1;
      keep.push(true);
    }
    if (keep.every(Boolean)) {
      blocks.push(block);
      continue;
    }
    const content = remembers.keepOnly(block.content, (index) => keep[index] === true);
    // Left empty only because its items went before: it says so. One whose stories all show in an
    // earlier source says nothing more than those discussion links do.
    const nothingNew = shown === 0 && sentBefore === items.identities.length;
    if (nothingNew) emptiedByOnlyNew = true;
    blocks.push({ ...block, content, ...(nothingNew ? { nothingNew } : {}) } as DigestBlockInput);
  }
  return { blocks, newItems, newItemsOf, hasLists, emptiedByOnlyNew, carried, sentBefore: sent };
}

/**
 * What the mail carries for the first time, to record: the items of each block as rendered (the size
 * limit may have cut some; an item left out is not recorded, so the next issue shows it), with the stories
 * they stand for. An item an earlier issue carried (a source with "Only new items" off repeats it) keeps
 * the day it was first sent.
 */
export function carriedKeysOf(rendered: readonly DigestBlockInput[], issue: NewItemsIssue): SentItemKey[] {
  return rendered.flatMap((block, index) => {
    const byIdentity = issue.carried.get(index);
    const items = byIdentity && itemsOf(block);
    if (!items) return [];
    return items.identities.flatMap((identity) =>
      (identity ? (byIdentity.get(identity) ?? []) : []).filter(
        (key) => !issue.sentBefore.has(pairOf(key.sourceKey, key.identity)),
      ),
    );
  });
}
