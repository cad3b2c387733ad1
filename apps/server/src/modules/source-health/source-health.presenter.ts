import {
  feedMovedNote,
  feedMovingMessage,
  type Source,
  type SourceErrorKind,
  type SourceFix,
  type SourceHealth,
  sourceFixOf,
  sourceHealthKey,
  sourceKindOf,
} from '@digest/contracts';
import type { SourceHealthRow } from './source-health.repository';

/** Whether the record's last read failed. */
export const isFailing = (record: SourceHealthRow) =>
  record.lastErrorAt !== null && (record.lastSuccessAt === null || record.lastErrorAt > record.lastSuccessAt);

/** What to do about the source: its failure's fix, else the feed's new address while it redirects. */
export function fixOf(source: Source, record: SourceHealthRow): SourceFix | null {
  if (isFailing(record) && record.lastErrorKind)
    return sourceFixOf(source.type, {
      kind: record.lastErrorKind as SourceErrorKind,
      providerStatus: record.lastErrorStatus,
    });
  if (record.redirectTo)
    return { message: feedMovingMessage(record.redirectTo), action: 'edit', label: 'Edit the source' };
  return null;
}

/** Where a fix's action is done in the app: Connected accounts, or the digest's page (its Edit). */
export function fixPath(fix: SourceFix, digestId: string): string {
  return fix.action === 'reconnect' ? '/accounts' : `/digests/${digestId}`;
}

/**
 * The health of each of the digest's sources, in their order (a source that shares another's key, a second
 * block of one feed, is answered once, at the first), with an empty record for a source never read yet.
 */
export function presentHealth(
  sources: readonly Source[],
  rows: readonly SourceHealthRow[],
  now: Date,
): SourceHealth[] {
  const byKey = new Map(rows.map((row) => [row.sourceKey, row]));
  const seen = new Set<string>();
  const answered: SourceHealth[] = [];
  for (const [index, source] of sources.entries()) {
    const key = sourceHealthKey(source);
    if (seen.has(key)) continue;
    seen.add(key);
    const row = byKey.get(key);
    const failing = row ? isFailing(row) : false;
    answered.push({
      key,
      index,
      type: source.type,
      title: sourceKindOf(source.type).title(source),
      failing,
      lastSuccessAt: row?.lastSuccessAt?.toISOString() ?? null,
      lastErrorAt: row?.lastErrorAt?.toISOString() ?? null,
      lastError:
        row?.lastErrorKind && row.lastErrorDetail !== null
          ? {
              kind: row.lastErrorKind as SourceErrorKind,
              detail: row.lastErrorDetail,
              providerStatus: row.lastErrorStatus,
            }
          : null,
      consecutiveFailures: row?.consecutiveFailures ?? 0,
      retryAt: row?.retryAt && row.retryAt > now ? row.retryAt.toISOString() : null,
      fix: row ? fixOf(source, row) : null,
      movedTo:
        row?.redirectTo && row.redirectSince
          ? { address: row.redirectTo, since: row.redirectSince.toISOString() }
          : null,
      note: row?.movedTo && row.movedAt ? feedMovedNote(row.movedTo, row.movedAt.toISOString()) : null,
    });
  }
  return answered;
}
