/**
 * Where the public feed corpora are (see their README.md): they sit next to the repository, not in it.
 * `FEED_CORPORA_DIR` names them explicitly; otherwise `<repo>/../shared/corpora`, or the shared folder of
 * this machine kind when the repository was cloned elsewhere (CI clones into a temporary folder).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const CANDIDATES = [
  process.env.FEED_CORPORA_DIR,
  fileURLToPath(new URL('../../shared/corpora/', import.meta.url)),
  '/work/shared/corpora/',
];

export function findFeedCorpora(): string | undefined {
  return CANDIDATES.find((candidate): candidate is string => !!candidate && existsSync(candidate));
}
