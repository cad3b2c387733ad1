import { type ListConditions, sourceKindOf, tooFewNewItems, withConditionsApplied } from '@digest/contracts';
import type { DigestBlockInput } from '@digest/email';
import { type NewItemsIssue, newItemsIssue } from './new-items';

/**
 * docs/product.md §3 "Conditions" in the issue build: each source's item filters, each source's gate
 * ("has something to say"), and the digest's "at least N sources have something to say". A source whose
 * gate is not met is left out of the issue; an issue with nothing left, or with fewer sources saying
 * something than the digest asks for, is skipped with the reasons in words.
 */

/** The blocks without the items their sources' conditions leave out (before any item counts as sent). */
export function withItemFilters(blocks: readonly DigestBlockInput[]): DigestBlockInput[] {
  return blocks.map((block) =>
    block.content === undefined
      ? block
      : ({ ...block, content: withConditionsApplied(block.source, block.content) } as DigestBlockInput),
  );
}

/** A source whose gate was not met: its block's title and why. */
export interface UnmetCondition {
  title: string;
  reason: string;
}

function unmetOf(block: DigestBlockInput, newItems: number): string | undefined {
  if (block.content === undefined) return undefined;
  const kind = sourceKindOf(block.source.type);
  const unmet = kind.conditions?.unmet?.(block.source, block.content);
  if (unmet) return unmet;
  if (!kind.remembers) return undefined;
  return tooFewNewItems(newItems, (block.source as { conditions?: ListConditions }).conditions);
}

export interface IssueUnderConditions {
  issue: NewItemsIssue;
  /** The sources left out because their gate was not met, in the digest's order. */
  unmet: UnmetCondition[];
}

/**
 * The issue as "Every item once" makes it from the blocks whose gates are met: the gates are read on the
 * whole issue first (a list source's new items are counted against what earlier issues carried), then the
 * issue is made again without the sources left out, so a story that only they had is not recorded as sent
 * and a story they shared goes to the next source that has it.
 */
export function issueUnderConditions(
  fetched: readonly DigestBlockInput[],
  sent: ReadonlySet<string>,
): IssueUnderConditions {
  const whole = newItemsIssue(fetched, sent);
  const unmet: UnmetCondition[] = [];
  const kept = fetched.filter((block, index) => {
    const reason = unmetOf(block, whole.newItemsOf[index] ?? 0);
    if (reason === undefined) return true;
    unmet.push({ title: sourceKindOf(block.source.type).title(block.source, block.content), reason });
    return false;
  });
  return { issue: unmet.length === 0 ? whole : newItemsIssue(kept, sent), unmet };
}

const hasNews = (block: DigestBlockInput) =>
  block.content !== undefined && sourceKindOf(block.source.type).hasNews(block.content);

/** "no rain expected (30 % < 60 %)", or each reason after its source's name when there are several. */
function reasonsOf(unmet: readonly UnmetCondition[]): string {
  if (unmet.length === 1) return unmet[0]?.reason ?? '';
  return unmet.map(({ title, reason }) => `${title}: ${reason}`).join('; ');
}

/**
 * Why the issue is skipped under its conditions, or undefined when it is sent: fewer sources with something
 * to say than `minSourcesToSend` (0 is off), or none left once the sources whose gates were not met are out.
 */
export function skippedByConditions(
  { issue, unmet }: IssueUnderConditions,
  minSourcesToSend: number,
): string | undefined {
  const saying = issue.blocks.filter(hasNews).length;
  if (minSourcesToSend > 0 && saying < minSourcesToSend) {
    const total = issue.blocks.length + unmet.length;
    const why = unmet.length > 0 ? ` (${reasonsOf(unmet)})` : '';
    return `Skipped: ${saying} of ${total} sources had something to say, at least ${minSourcesToSend} needed${why}.`;
  }
  if (saying === 0 && unmet.length > 0) return `Skipped: ${reasonsOf(unmet)}.`;
  return undefined;
}
