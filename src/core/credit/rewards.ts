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
 *                 anything about the actions). Per-step credit from the page
 *                 (`step-credit.ts`), when steps carry page keys or margins:
 *                 - o > 0 (the path of a success): the last executed step gets
 *                   o, every earlier one OUTCOME_SHARE·o, except wasted steps
 *                   (changed nothing, undone, part of a loop, a detour on the
 *                   wrong item when the task is known), which get
 *                   WASTED_STEP_REWARD instead;
 *                 - o < 0: the failure goes to the steps `blameOnFailure`
 *                   picks (the wasted ones and the last one sampled
 *                   against the base policy's preference before them, else
 *                   the least-sure one; a step that ran what memory settled
 *                   has no margin, so neither rule picks it; with nothing
 *                   to go on, every step that was not settled, or the last
 *                   when all were) and,
 *                   when the verdict came right after it (not at the step
 *                   limit), to the last step; 0 to the others, which did
 *                   what they meant to or whose effect a later step undid
 *                   (App. G.1.2 scores "effect immediately undone" 0);
 *                 - o = 0: wasted steps get WASTED_STEP_REWARD, others 0.
 *                 Without page keys or margins (recorded demonstrations,
 *                 imports): the last executed step gets o, every earlier
 *                 one OUTCOME_SHARE·o. With the paper's γ = 0.1, G_t sees
 *                 only 0.1^(T−t) of the last reward, so without the share the
 *                 early steps of a success would learn almost nothing.
 *   e_t = evaluator score clamped to −3..+3, divided by 3  (missing → 0)
 *   r_t = (1 − w)·h_t + w·e_t   with w = evaluatorWeight, when scores exist
 *   r_t = h_t                   otherwise
 *
 * Steps that never ran (no chosen action) get 0 and are not stored.
 * Rejected alternatives are stored separately by the learner, with `reject`.
 */
import type { FinishedStatus, StepRecord } from '../episode/episode.ts';
import type { RewardSource } from '../episode/reward-source.ts';
import type { RewardSettings } from '../settings.ts';
import { blameOnFailure, stepEvidence, type CreditStep } from './step-credit.ts';
import { taskWords } from '../page/tokenize.ts';

/** A failed action (element gone, disabled, timeout, …): a small negative. */
export const ACTION_ERROR_REWARD = -0.25;
/** Fraction of the terminal outcome given to every executed step before the last. */
export const OUTCOME_SHARE = 0.5;
/** A step that changed nothing, undid an earlier one or went round a loop (the evaluator's "useless"). */
export const WASTED_STEP_REWARD = -0.5;

/** The step ran the candidate memory settled: what worked in this very state (taught, or an earlier success). */
const settledStep = (step: StepRecord): boolean =>
  step.candidates.some((c) => c.settled === true && c.semantic === step.chosen?.semantic);

/**
 * The base-logit gap between the chosen candidate and the best other one
 * (null: edited, demonstrated, alone, or settled). A settled step repeated
 * what memory says worked in this very state (what the person taught there,
 * or an earlier success): that is not where the agent explored, nor a call the
 * policy was unsure of, so a later failure is not blamed on it through its
 * margin (issue 35: a failed alone attempt must not erase a taught step that
 * was right). The page's evidence (no change, undone, detour) still blames it.
 */
export function choiceMargin(step: StepRecord): number | null {
  const chosen = step.chosen;
  if (chosen === null || step.candidates.length < 2) return null;
  const mine = step.candidates.find((c) => c.semantic === chosen.semantic);
  if (!mine || settledStep(step)) return null;
  const others = step.candidates.filter((c) => c !== mine).map((c) => c.baseLogit);
  return mine.baseLogit - Math.max(...others);
}

/** The outcome's part of each step's reward (see the rule above), parallel to `steps`. */
function outcomeShares(steps: readonly StepRecord[], o: number, judgedAfterLastStep: boolean, taskTokens: readonly string[] | undefined): number[] {
  const idx = steps.map((s, i) => (executed(s) ? i : -1)).filter((i) => i >= 0);
  const credit: CreditStep[] = idx.map((i) => {
    const s = steps[i]!;
    return { pageKey: s.pageKey ?? null, action: s.chosen!.semantic, ok: s.result?.ok !== false, margin: choiceMargin(s), url: s.url, regUrl: s.regUrl };
  });
  const out = steps.map(() => 0);
  const last = idx.at(-1);
  const uniform = () => idx.forEach((i) => { out[i] = i === last ? o : OUTCOME_SHARE * o; });
  const informed = credit.some((c) => c.pageKey !== null || c.margin !== null);
  if (!informed) {
    uniform();
    return out;
  }
  if (o < 0) {
    const blame = blameOnFailure(credit, taskTokens);
    if (blame === null) {
      // Nothing says which step went wrong; not the ones that repeated what worked in their very state.
      const open = idx.filter((i) => !settledStep(steps[i]!));
      if (open.length === 0 && last !== undefined) out[last] = o;
      open.forEach((i) => { out[i] = i === last ? o : OUTCOME_SHARE * o; });
    } else {
      // A step whose effect a later step undid (A → B → A) gets 0, as the
      // seed's evaluator guide scores an action with its "effect immediately
      // undone" (docs/learning.md, "Papers"): it may have been the right move (a setting
      // the task asked for, then discarded), and the undoing step takes the
      // blame. The in-episode loop bar already keeps the agent from going round.
      idx.forEach((i, k) => { out[i] = blame[k] ? o : 0; });
      // The failure was declared right after the last step (an answer, a
      // commit the site or the person judged), not at the step limit: that
      // step is where the failure's evidence points, whatever else is blamed.
      if (judgedAfterLastStep && last !== undefined) out[last] = o;
    }
    return out;
  }
  // A failed action already pays ACTION_ERROR_REWARD; "wasted" here is what the page shows.
  const wasted = stepEvidence(credit, taskTokens).map((e) => e !== null && e !== 'error');
  idx.forEach((i, k) => { out[i] = wasted[k] ? WASTED_STEP_REWARD : i === last ? o : OUTCOME_SHARE * o; });
  return out;
}

export type EpisodeOutcome = FinishedStatus;

export interface RewardInput {
  steps: readonly StepRecord[];
  outcome: EpisodeOutcome;
  /** The evaluator's per-step scores (−3..+3), parallel to `steps`; null when no evaluator ran. */
  evaluatorScores: readonly number[] | null;
  settings: RewardSettings;
  /**
   * The verdict came right after the last step (an answer, or the task judged
   * done or failed then), rather than at the step limit. A failure then also
   * blames the last step. Default false.
   */
  judgedAfterLastStep?: boolean;
  /** The episode's task: with it, wrong-item detours are wasted or blamed (`wrongItemDetours`). */
  task?: string;
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
  const shares = outcomeShares(steps, o, input.judgedAfterLastStep ?? false, input.task === undefined ? undefined : taskWords(input.task));

  const person = steps.map((step, i) => {
    const chosen = step.chosen;
    if (chosen === null) return 0;
    if (chosen.decision === 'rejected') return settings.reject;
    let h = chosen.decision === 'auto' ? 0 : settings.approve;
    if (step.result !== null && !step.result.ok) h += ACTION_ERROR_REWARD;
    return h + (shares[i] ?? 0);
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
