import { and, eq } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { oauthStates, socialIdentities, socialTickets, users } from '#server/db/schema';

export async function insertOAuthState(db: Database, values: typeof oauthStates.$inferInsert) {
  await db.insert(oauthStates).values(values);
}

/** Takes a state out for good: whatever happens next, it cannot be presented twice. */
export async function consumeOAuthState(db: Database, stateHash: string) {
  const [row] = await db.delete(oauthStates).where(eq(oauthStates.stateHash, stateHash)).returning();
  return row;
}

export async function findIdentity(db: Database, provider: string, subject: string) {
  const [row] = await db
    .select()
    .from(socialIdentities)
    .where(and(eq(socialIdentities.provider, provider), eq(socialIdentities.subject, subject)));
  return row;
}

export async function insertIdentity(db: Database, values: typeof socialIdentities.$inferInsert) {
  await db.insert(socialIdentities).values(values);
}

export async function insertTicket(db: Database, values: typeof socialTickets.$inferInsert) {
  await db.insert(socialTickets).values(values);
}

/** Takes a ticket out for good (single use); the caller checks its expiry. */
export async function consumeTicket(db: Database, ticketHash: string) {
  const [row] = await db.delete(socialTickets).where(eq(socialTickets.ticketHash, ticketHash)).returning();
  return row;
}

/** Tickets nobody redeemed; cheap enough to run whenever a new one is issued. */

/**
 * The account had never proven its mailbox, and the provider just proved someone else (or the same person)
 * controls it: its password and sessions may belong to whoever registered the address first, so they end.
 * The owner signs in through the provider, or sets a password again with "Forgot password".
 */
export async function claimUnconfirmedAccount(db: Database, userId: string, now: Date) {
  await db
    .update(users)
    .set({ passwordHash: null, confirmed: true, updatedAt: now })
    .where(eq(users.userId, userId));
}
