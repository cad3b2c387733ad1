import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/**
 * The channels the database's triggers notify on (migrations/0017_digest_list_changes.sql), each with what
 * its payload is. Every connection of a pool listens to all of them from the start.
 */
export const CHANGE_CHANNELS = {
  /** A user whose digest list (`GET /api/digests`) may read differently now; the payload is their id. */
  digestList: 'digest_list_changed',
} as const;
export type ChangeChannel = (typeof CHANGE_CHANNELS)[keyof typeof CHANGE_CHANNELS];

export interface ChangeHandlers {
  /** Called with each notification's payload. */
  onChange(payload: string): void;
  /** Called when notifications may have been missed: whatever was kept on their strength is now unsure. */
  onMissed(): void;
}

export interface ChangeSubscription {
  /**
   * True while every notification on the channel reaches this process. While false (before listening has
   * started, or while a lost listening connection is made again) nothing may be kept on its strength.
   */
  heard(): boolean;
}

/** Changes other writers announce, heard by this process. */
export interface DatabaseChanges {
  subscribe(channel: ChangeChannel, handlers: ChangeHandlers): ChangeSubscription;
  close(): Promise<void>;
}

/** Waits after losing the listening connection: doubling from the first to the last. */
const RECONNECT_DELAYS_MS = { first: 250, last: 30_000 };

function handlersOf() {
  const byChannel = new Map<string, Set<ChangeHandlers>>();
  return {
    add(channel: string, handlers: ChangeHandlers) {
      const set = byChannel.get(channel) ?? new Set();
      set.add(handlers);
      byChannel.set(channel, set);
    },
    changed(channel: string, payload: string) {
      for (const handlers of byChannel.get(channel) ?? []) handlers.onChange(payload);
    },
    missed() {
      for (const set of byChannel.values()) for (const handlers of set) handlers.onMissed();
    },
    any: () => byChannel.size > 0,
  };
}

/**
 * PGlite is one session: a notification reaches its listener before the statement or commit that raised it
 * resolves, so once `listen` has answered nothing is ever missed.
 */
export function embeddedChanges(pglite: PGlite): DatabaseChanges {
  const handlers = handlersOf();
  const listening = new Map<string, boolean>();
  return {
    subscribe(channel, channelHandlers) {
      handlers.add(channel, channelHandlers);
      if (!listening.has(channel)) {
        listening.set(channel, false);
        void pglite
          .listen(channel, (payload) => handlers.changed(channel, payload))
          .then(() => listening.set(channel, true));
      }
      return { heard: () => listening.get(channel) === true };
    },
    async close() {},
  };
}

/**
 * For a process that hears no changes (`postgresDatabase` without `hearChanges`): nothing is ever heard, so
 * nothing may be kept on their strength.
 */
export function unheardChanges(): DatabaseChanges {
  return { subscribe: () => ({ heard: () => false }), close: async () => {} };
}

export interface PostgresChanges extends DatabaseChanges {
  /** For the pool's `onConnect`: the connection listens too, so this process's own commits are heard at once. */
  listenOn(client: pg.ClientBase): Promise<void>;
}

/**
 * On PostgreSQL two kinds of connections listen:
 * - every connection of this process's pool, from its start: a notification reaches the session that
 *   committed it before its commit answers, so a change made by this process is heard before the use case
 *   that made it returns (no window in which its own next read could be stale);
 * - one connection of its own, opened at the first subscription and kept: the pool may have no connection
 *   open at all, and changes committed by other processes must still be heard. When it is lost, everything
 *   kept on the strength of notifications is dropped (`onMissed`) and nothing is kept until it listens again.
 * A change committed by another process is heard within the notification's delivery (well under a
 * millisecond on one host): a read in that window may still answer what was true just before.
 */
export function postgresChanges(
  connectionString: string,
  onListenerLost: (error: Error | undefined) => void = () => {},
): PostgresChanges {
  const handlers = handlersOf();
  const channels = Object.values(CHANGE_CHANNELS);
  let listener: pg.Client | undefined;
  let heard = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let delayMs = RECONNECT_DELAYS_MS.first;

  const dispatch = (message: pg.Notification) => handlers.changed(message.channel, message.payload ?? '');
  const listenStatement = channels.map((channel) => `listen "${channel}"`).join('; ');

  async function connectListener() {
    const client = new pg.Client({ connectionString, application_name: 'digest-changes' });
    listener = client;
    let lost = false;
    const lose = (error?: Error) => {
      if (lost) return;
      lost = true;
      heard = false;
      handlers.missed();
      void client.end().catch(() => {});
      if (closed) return;
      onListenerLost(error);
      retry = setTimeout(() => void connectListener(), delayMs);
      retry.unref();
      delayMs = Math.min(delayMs * 2, RECONNECT_DELAYS_MS.last);
    };
    client.on('error', lose);
    client.on('end', () => lose());
    client.on('notification', dispatch);
    try {
      await client.connect();
      await client.query(listenStatement);
      if (lost || closed) return;
      heard = true;
      delayMs = RECONNECT_DELAYS_MS.first;
    } catch (error) {
      lose(error as Error);
    }
  }

  return {
    subscribe(channel, channelHandlers) {
      const first = !handlers.any();
      handlers.add(channel, channelHandlers);
      if (first) void connectListener();
      return { heard: () => heard };
    },
    async listenOn(client) {
      client.on('notification', dispatch);
      await client.query(listenStatement);
    },
    async close() {
      closed = true;
      heard = false;
      clearTimeout(retry);
      await listener?.end().catch(() => {});
    },
  };
}
