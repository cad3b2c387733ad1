import { type Draft, type DraftCreate, type DraftPatch, MAX_DRAFTS } from '@digest/contracts';
import type { Database } from '#server/db/client';
import type { Clock } from '#server/platform/clock';
import { digestsErrors } from './digests.errors';
import * as repository from './drafts.repository';

export interface DraftsDeps {
  db: Database;
  clock: Clock;
}

/** A draft as the API answers it; its id is `digestId` (docs/product.md §3 Draft). */
export function presentDraft(row: repository.DraftRow): Draft {
  return {
    digestId: row.draftId,
    name: row.name,
    sources: row.sources,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function createDraft(deps: DraftsDeps, userId: string, body: DraftCreate) {
  if ((await repository.countDrafts(deps.db, userId)) >= MAX_DRAFTS) throw digestsErrors.tooManyDrafts();
  const now = deps.clock.now();
  const row = await repository.insertDraft(deps.db, {
    userId,
    name: body.name,
    sources: body.sources,
    createdAt: now,
    updatedAt: now,
  });
  return presentDraft(row);
}

export async function listDrafts(deps: DraftsDeps, userId: string) {
  return (await repository.listDrafts(deps.db, userId)).map(presentDraft);
}

export async function updateDraft(deps: DraftsDeps, userId: string, draftId: string, patch: DraftPatch) {
  const row = await repository.updateDraft(deps.db, userId, draftId, {
    ...patch,
    updatedAt: deps.clock.now(),
  });
  if (!row) throw digestsErrors.draftNotFound();
  return presentDraft(row);
}

export async function deleteDraft(deps: DraftsDeps, userId: string, draftId: string) {
  if (!(await repository.deleteDraft(deps.db, userId, draftId))) throw digestsErrors.draftNotFound();
}
