/**
 * The scheduler's slots are computed in `@digest/contracts` (`nextRunAfter`, schedule-slots.ts), where the
 * web app's list of next sends reads them too; what is the scheduler's alone stays here.
 */

/** The singleton key of a slot's build job: one build per digest and slot, however many schedulers run. */
export function slotKey(digestId: string, slot: Date): string {
  return `${digestId}:${slot.toISOString()}`;
}
