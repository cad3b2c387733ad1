import { lt } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { passwordResets, refreshTokens } from '../../db/schema';

/** Tokens past their expiry can never be used again, and a reused one is refused anyway. */
export async function deleteExpiredTokens(db: Database, now: Date) {
  const refresh = await db
    .delete(refreshTokens)
    .where(lt(refreshTokens.expiresAt, now))
    .returning({ id: refreshTokens.tokenId });
  const resets = await db
    .delete(passwordResets)
    .where(lt(passwordResets.expiresAt, now))
    .returning({ id: passwordResets.resetId });
  return { refreshTokens: refresh.length, passwordResets: resets.length };
}
