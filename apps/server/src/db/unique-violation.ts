/** Whether `error`, or one it wraps (Drizzle wraps the driver's), is a database error `matches` takes. */
export function hasDatabaseError(
  error: unknown,
  matches: (error: { code?: string; constraint?: string; message?: string }) => boolean,
): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 3; depth++) {
    const candidate = current as { code?: string; constraint?: string; message?: string; cause?: unknown };
    if (candidate.code !== undefined && matches(candidate)) return true;
    current = candidate.cause;
  }
  return false;
}

/** PostgreSQL's unique_violation, as thrown by node-postgres and PGlite (possibly wrapped by Drizzle). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  return hasDatabaseError(
    error,
    (candidate) => candidate.code === '23505' && (!constraint || candidate.constraint === constraint),
  );
}
