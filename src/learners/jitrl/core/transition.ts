/**
 * One step of experience, as JitRL's memory M = {(s_i, a_i, G_i)} stores it
 * (§4.1): a row of the `stepRows` store JitRL declares (stores.ts). G is never
 * stored: it is recomputed from `futureRewards` with the current γ (Eq. 3),
 * so changing γ in the settings needs no migration. A person-taught row is
 * proposed first in its state next time and transfers to other instances of
 * the task's template (corrections.ts).
 */
import { StepRowSchema, type StepRow, type StepRowSite, type StepRowStore } from '../../../core/stores/step-rows.ts';
import { InMemoryStepRowStore, newestFirst } from '../../../core/stores/in-memory-step-rows.ts';

export const TransitionSchema = StepRowSchema;
export type Transition = StepRow;
/** Where JitRL's transitions live (IndexedDB in the extension, in memory in tests and the linear-scan baseline). */
export type MemoryStore = StepRowStore;
export type SiteSummary = StepRowSite;
export { InMemoryStepRowStore as InMemoryMemoryStore, newestFirst };

/** A retrieved neighbour with its similarity and return, as the UI shows it. */
export interface Neighbour {
  transition: Transition;
  similarity: number;
  /** G recomputed with the current γ. */
  ret: number;
}
