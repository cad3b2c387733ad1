import {
  type OpmlFolderDigestsInput,
  type OpmlImport,
  opmlFolderDigestsResponseSchema,
  opmlImportResponseSchema,
} from '@digest/contracts';
import { api } from '#web/lib/api-client';

/** Reading a large file and answering it takes longer than a click's call. */
const UPLOAD_TIMEOUT_MS = 30_000;

/** `POST /opml/import`: the file's own bytes (any encoding), read by the server; nothing is stored. */
export function importOpml(file: Blob): Promise<OpmlImport> {
  return api.post('/opml/import', file, {
    headers: { 'Content-Type': 'text/x-opml' },
    schema: opmlImportResponseSchema,
    timeoutMs: UPLOAD_TIMEOUT_MS,
  });
}

/** `POST /opml/digests`: one digest per folder, all or none. */
export function createFolderDigests(body: OpmlFolderDigestsInput) {
  return api.post('/opml/digests', body, { schema: opmlFolderDigestsResponseSchema });
}

/** `GET /digests/{id}/opml`: the digest's feeds as an OPML file. */
export function fetchDigestOpml(digestId: string): Promise<Blob> {
  return api.get<Blob>(`/digests/${encodeURIComponent(digestId)}/opml`, { blob: true });
}

/** `GET /account/archive`: all the account's data as a JSON file (may be large: a longer wait). */
export function fetchAccountArchive(): Promise<Blob> {
  return api.get<Blob>('/account/archive', { blob: true, timeoutMs: 120_000 });
}
