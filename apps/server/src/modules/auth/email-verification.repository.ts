import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { emailVerifications } from '#server/db/schema';

export type VerificationPurpose = 'sign-up' | 'email-change';

export async function insertEmailVerification(
  db: Database,
  values: {
    userId: string;
    purpose: VerificationPurpose;
    email: string;
    sessionId: string | null;
    tokenHash: string;
    expiresAt: Date;
  },
) {
  await db.insert(emailVerifications).values(values);
}

/** Uses a verification token once: its row, or undefined when unknown, used or expired. */
export async function consumeEmailVerification(db: Database, tokenHash: string, now: Date) {
  const [row] = await db
    .update(emailVerifications)
    .set({ usedAt: now })
    .where(
      and(
        eq(emailVerifications.tokenHash, tokenHash),
        isNull(emailVerifications.usedAt),
        gt(emailVerifications.expiresAt, now),
      ),
    )
    .returning();
  return row as (typeof row & { purpose: VerificationPurpose }) | undefined;
}
