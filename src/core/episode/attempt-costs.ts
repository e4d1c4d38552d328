/**
 * What an attempt needed from the person and the model (issue 31, "History
 * shows the learning"): the numbers that fall as Apprentice learns a task,
 * read from the stored steps. Pure; the History tab charts them per attempt.
 *
 *   asks         steps the person decided by hand (approved, picked, edited,
 *                shown): not the ones that ran on their own (auto), nor the
 *                step "Task is done" closed (that is the verdict)
 *   corrections  steps where the person overruled a proposal: a rejection,
 *                another candidate, an edit, a picked element, Show me; not
 *                "Task is done" pressed while a proposal waited
 *   modelCalls   calls to the model, every step's (the policy's and learners')
 *   replayed     steps run from a learned plan (no model call)
 */
import type { Episode, StepRecord } from './episode.ts';

export interface AttemptCosts {
  asks: number;
  corrections: number;
  modelCalls: number;
  replayed: number;
}

const ASKED = new Set(['approved', 'picked', 'edited']);

const corrected = (s: StepRecord): boolean => s.rejected.length > 0 || s.chosen?.correction !== undefined;

export function attemptCosts(episode: Pick<Episode, 'steps'>): AttemptCosts {
  const steps = episode.steps;
  return {
    asks: steps.filter((s) => s.chosen !== null && ASKED.has(s.chosen.decision) && s.chosen.done !== true && s.takeOver === undefined).length,
    corrections: steps.filter(corrected).length,
    modelCalls: steps.reduce((n, s) => n + s.modelCalls, 0),
    replayed: steps.filter((s) => s.replayStep !== undefined && s.chosen !== null).length,
  };
}
