import type { DigestSummary } from '@digest/contracts';
import { CHANGE_CHANNELS, type DatabaseChanges } from '#server/db/database-changes';

export interface DigestListCache {
  /** The user's cards: from memory when nothing they show has changed since they were read, else `load()`. */
  read(userId: string, load: () => Promise<DigestSummary[]>): Promise<DigestSummary[]>;
}

/**
 * Users' digest lists kept in this process, each until the database says something it shows changed (the
 * triggers of migration 0017 notify on every write to digests, their subscribers, their issues and the
 * owner's zone, whoever writes). A list is the app's most repeated read; kept, it costs no query.
 *
 * - Nothing is kept while notifications may be missed (`heard()` false): before listening has started, or
 *   while a lost listening connection is made again; losing it drops everything kept.
 * - A list read from the database is kept only if no change for that user arrived while it was read (the
 *   read may have seen the row before the change committed).
 * - Readers of the same user while a read is under way share it: 100 requests, one query.
 * - At most `maxUsers` lists; the least recently read goes first. `maxUsers` 0 turns the memory off.
 */
export function createDigestListCache(deps: { changes: DatabaseChanges; maxUsers: number }): DigestListCache {
  if (deps.maxUsers <= 0) return { read: (_userId, load) => load() };
  /** Map order is recency: the first entry is the least recently read. */
  const kept = new Map<string, DigestSummary[]>();
  const reading = new Map<string, { list: Promise<DigestSummary[]>; changed: boolean }>();

  const subscription = deps.changes.subscribe(CHANGE_CHANNELS.digestList, {
    onChange(userId) {
      kept.delete(userId);
      const read = reading.get(userId);
      if (read) {
        read.changed = true;
        reading.delete(userId);
      }
    },
    onMissed() {
      kept.clear();
      for (const read of reading.values()) read.changed = true;
      reading.clear();
    },
  });

  return {
    read(userId, load) {
      if (!subscription.heard()) return load();
      const list = kept.get(userId);
      if (list) {
        kept.delete(userId);
        kept.set(userId, list);
        return Promise.resolve(list);
      }
      const under = reading.get(userId);
      if (under) return under.list;
      const read = { list: load(), changed: false };
      reading.set(userId, read);
      read.list.then(
        (loaded) => {
          if (read.changed) return;
          reading.delete(userId);
          kept.set(userId, loaded);
          if (kept.size > deps.maxUsers) kept.delete(kept.keys().next().value as string);
        },
        () => {
          if (reading.get(userId) === read) reading.delete(userId);
        },
      );
      return read.list;
    },
  };
}
