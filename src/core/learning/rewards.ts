/**
 * Per-step rewards r_t from the person's signals, action errors, the episode's
 * outcome and the optional model evaluator. The combination rule:
 *
 *   h_t = decision_t + error_t + outcome share_t          (the person's side)
 *     decision_t: `approve` for an approved, picked, edited or demonstrated
 *                 step (a person's own action counts as approved); 0 for an
 *                 auto-approved one; `reject` for a chosen-then-rejected one
 *     error_t:    ACTION_ERROR_REWARD when the action failed to run
 *     outcome:    o = success | failure | partial from the settings, 0 when
 *                 the episode was stopped or ended in an error (neither says
 *                 anything about the actions). The last executed step gets o;
 *                 every earlier executed step gets OUTCOME_SHARE·o. With the
 *                 paper's γ = 0.1, G_t sees only 0.1^(T−t) of the last
 *                 reward, so without the share the early steps of a success
 *                 would learn almost nothing from it.
 *   e_t = evaluator score clamped to −3..+3, divided by 3  (missing → 0)
 *   r_t = (1 − w)·h_t + w·e_t   with w = evaluatorWeight, when scores exist
 *   r_t = h_t                   otherwise
 *
 * Steps that never ran (no chosen action) get 0 and are not stored.
 * Rejected alternatives are stored separately by the learner, with `reject`.
 */
import type { StepRecord } from '../agent/episode.ts';
import type { RewardSource } from '../memory/transition.ts';
import type { RewardSettings } from '../settings.ts';

/** A failed action (element gone, disabled, timeout, …): a small negative. */
export const ACTION_ERROR_REWARD = -0.25;
/** Fraction of the terminal outcome given to every executed step before the last. */
export const OUTCOME_SHARE = 0.5;

export type EpisodeOutcome = 'success' | 'failure' | 'partial' | 'stopped' | 'error';

export interface RewardInput {
  steps: readonly StepRecord[];
  outcome: EpisodeOutcome;
  /** The evaluator's per-step scores (−3..+3), parallel to `steps`; null when no evaluator ran. */
  evaluatorScores: readonly number[] | null;
  settings: RewardSettings;
}

export interface RewardOutput {
  /** r_t, parallel to `steps`. */
  rewards: number[];
  source: RewardSource;
}

const executed = (step: StepRecord): boolean => step.chosen !== null && step.chosen.decision !== 'rejected';

export function outcomeReward(outcome: EpisodeOutcome, settings: RewardSettings): number {
  switch (outcome) {
    case 'success': return settings.success;
    case 'failure': return settings.failure;
    case 'partial': return settings.partial;
    case 'stopped':
    case 'error': return 0;
  }
}

export function assignStepRewards(input: RewardInput): RewardOutput {
  const { steps, settings } = input;
  const o = outcomeReward(input.outcome, settings);
  let last = -1;
  steps.forEach((s, i) => { if (executed(s)) last = i; });

  const person = steps.map((step, i) => {
    const chosen = step.chosen;
    if (chosen === null) return 0;
    if (chosen.decision === 'rejected') return settings.reject;
    let h = chosen.decision === 'auto' ? 0 : settings.approve;
    if (step.result !== null && !step.result.ok) h += ACTION_ERROR_REWARD;
    h += i === last ? o : OUTCOME_SHARE * o;
    return h;
  });

  const scores = input.evaluatorScores;
  if (scores === null) {
    const auto = steps.every((s) => s.chosen === null || s.chosen.decision === 'auto');
    // Nothing from the person but the outcome: the task's own success signal.
    return { rewards: person, source: auto ? 'outcome' : 'person' };
  }
  const w = settings.evaluatorWeight;
  const rewards = steps.map((step, i) => {
    if (step.chosen === null) return 0;
    const raw = scores[i];
    const e = raw === undefined || !Number.isFinite(raw) ? 0 : Math.min(3, Math.max(-3, raw)) / 3;
    return (1 - w) * (person[i] ?? 0) + w * e;
  });
  return { rewards, source: w === 1 ? 'evaluator' : 'combined' };
}
