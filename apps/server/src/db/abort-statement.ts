import { type SQL, sql } from 'drizzle-orm';
import { hasDatabaseError } from './unique-violation';

/** The error code of `digest_abort_statement` (migration 0024). */
const ABORTED_STATEMENT = 'DG001';

/**
 * An expression that fails the statement it is part of, with `reason`, when `condition` holds (else it is
 * null): everything the statement wrote is undone, as a transaction's rollback would, without a transaction.
 */
export function abortStatementIf(condition: SQL, reason: string): SQL {
  return sql`case when ${condition} then digest_abort_statement(${reason}) end`;
}

/** The error of a statement `abortStatementIf` failed with `reason`. */
export function isAbortedStatement(error: unknown, reason: string): boolean {
  return hasDatabaseError(
    error,
    (candidate) => candidate.code === ABORTED_STATEMENT && candidate.message === reason,
  );
}
