import { createHash } from 'node:crypto';
import pg from 'pg';

/**
 * How many distinct statement texts one process prepares: far more than the program's own statements
 * (≈ 300), so every one of them is prepared, while statements whose text changes with their input (a list
 * of n placeholders) cannot make PostgreSQL keep an ever-growing number of plans per connection.
 */
export const MAX_PREPARED_TEXTS = 2_000;

/**
 * Names statements with parameters after their text, so that node-postgres prepares each once per
 * connection and PostgreSQL keeps its plan: planning our joins cost more than running them (≈ 1.3 ms
 * against 0.1 ms to claim a delivery; docs/decisions/0006), and an unnamed statement
 * is planned again on every call. PostgreSQL re-plans a prepared statement by itself after a migration
 * changes a table it reads.
 */
export function statementNamer(maxTexts = MAX_PREPARED_TEXTS) {
  const names = new Map<string, string>();
  return (text: string): string | undefined => {
    const known = names.get(text);
    if (known || names.size >= maxTexts) return known;
    const name = `digest_${createHash('sha256').update(text).digest('base64url').slice(0, 32)}`;
    names.set(text, name);
    return name;
  };
}

const nameOf = statementNamer();

/** `client.query`'s arguments with a name added where the statement has parameters and none yet. */
export function withStatementName(args: unknown[], name: (text: string) => string | undefined = nameOf) {
  const [config, values, ...rest] = args;
  if (typeof config === 'string') {
    if (!Array.isArray(values) || values.length === 0) return args;
    const statement = name(config);
    return statement ? [{ text: config, name: statement }, values, ...rest] : args;
  }
  if (!isPlainQueryConfig(config)) return args;
  const parameters = Array.isArray(values) ? values : config.values;
  if (!Array.isArray(parameters) || parameters.length === 0 || config.name) return args;
  const statement = name(config.text);
  return statement ? [{ ...config, name: statement }, values, ...rest] : args;
}

/** A query given as `{ text, values?, … }` (not a cursor or stream, which submit themselves). */
function isPlainQueryConfig(config: unknown): config is { text: string; values?: unknown; name?: string } {
  return (
    typeof config === 'object' &&
    config !== null &&
    typeof (config as { text?: unknown }).text === 'string' &&
    typeof (config as { submit?: unknown }).submit !== 'function'
  );
}

/** The node-postgres client our pools (the application's and the job queue's) open connections with. */
export class PreparingClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: the overloads of pg's query are kept as they are.
  override query(...args: unknown[]): any {
    return (pg.Client.prototype.query as (...args: unknown[]) => unknown).apply(
      this,
      withStatementName(args),
    );
  }
}
