/** PostgreSQL's unique_violation, as thrown by node-postgres and PGlite (possibly wrapped by Drizzle). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 3; depth++) {
    const candidate = current as { code?: string; constraint?: string; cause?: unknown };
    if (candidate.code === '23505') return !constraint || candidate.constraint === constraint;
    current = candidate.cause;
  }
  return false;
}
