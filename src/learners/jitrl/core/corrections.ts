/**
 * What the person taught at a step, read from the step record: the action
 * they approved, the one they put in place of the proposal (a correction:
 * another candidate picked, an action edited in, a step demonstrated), and
 * the proposals they rejected. Learners store it with their experience
 * (JitRL: `Transition.taught`), so a correction is proposed first in that
 * state the next time, and what the person taught on one instance of a task
 * template reaches the next one with its own values (memory/task-instances.ts).
 * docs/corrections.md says which learner carries what.
 */
import type { StepRecord } from '../../../core/episode/episode.ts';

export type Taught = 'approved' | 'corrected' | 'rejected';

/** How the person taught the step's executed action, or undefined (auto-approved, not run). */
export function taughtAction(step: StepRecord): Exclude<Taught, 'rejected'> | undefined {
  const decision = step.chosen?.decision;
  // Pick, edit and Show me say so (`correction`); a step the person did themselves is one too.
  if (step.chosen?.correction !== undefined || decision === 'edited' || decision === 'demonstrated') return 'corrected';
  // A pick of the proposal itself is an approval; a pick over a rejected proposal corrects it.
  if (decision === 'picked') return step.rejected.length > 0 ? 'corrected' : 'approved';
  if (decision === 'approved') return step.rejected.length > 0 ? 'corrected' : 'approved';
  return undefined;
}
