/**
 * JitRL Steps 2–6 of Algorithm 1, pure: from the neighbours N(s) and the
 * model's candidates to base and adjusted logits for the augmented candidate
 * set.
 *   V(s) = mean G over N(s)                                   (Eq. 4)
 *   Q(s,a) = mean G over N(s,a)          when |N(s,a)| > 0    (Eq. 5)
 *   Q(s,a) = V(s) + α/|N(s)|  with prob. λ, else 0            (Eq. 6)
 *   A = Q − V (Eq. 7), Ã normalized (Eq. 25), z' = z + β·Ã    (Eq. 10)
 */
import type { Barred } from '../../../core/episode/episode.ts';
import type { Neighbour } from './transition.ts';
import type { RandomSource } from '../../../core/ports.ts';
import type { JitrlSettings } from './settings.ts';
import type { ResolveAction } from '../../../core/learning/learner.ts';
import { memoryCandidate, withEvidence, withProbabilities, type Candidate } from '../../../core/learning/candidate.ts';
import { samePage } from '../../../core/page/same-page.ts';
import { isRebound } from './retrieve-neighbours.ts';
import { JITRL_ID, type JitrlCandidateEvidence } from './evidence.ts';

/** ε of Eq. 25: keeps the division finite when every advantage is 0. */
export const NORMALIZATION_EPSILON = 1e-8;

/**
 * Where a memory-only action enters (Step 3 of Algorithm 1). The paper sets
 * z = 0, which is neutral for probabilities but the very top of a
 * log-probability scale: a remembered action would outrank everything the
 * model proposed before any evidence was weighed. Our rule: a memory-only
 * action starts this many nats below the lowest logit the model gave, as it
 * reaches JitRL (the first adjuster in the registry: the policy's z) (e times
 * less likely than the model's least likely proposal), so only its advantage
 * (at most β·ΔÃ) can lift it above the model's choices. With no model
 * candidate at all there is nothing to sit below, and z = 0 stays.
 */
export const MEMORY_ONLY_MARGIN = 1;

/**
 * A (state, action) is "barred" when the memory says, for this very state
 * (similarity 1: same page type, same effective state, same task), that the
 * person rejected it, or that its returns there average at most this (half a
 * failure): the step the failure's credit blamed. A barred candidate is never
 * proposed while an unbarred one exists (`rankForProposal`); its logits are
 * still Eq. 10's, so the evidence shown stays the paper's maths.
 */
export const BARRED_RETURN = -0.5;

/**
 * Exploitation after success: an action whose own credit in this very state
 * (similarity 1, as for bars) averages at least this (half a success) is
 * "settled": it is proposed outright, not sampled (`chooseProposal`). Only
 * this very state counts: a similar state of another task (another instance
 * of the template) must not replay that task's choices.
 *
 * The step's own reward r_t is read, not its return G_t (`settledHere`): G
 * adds γ-discounted rewards of later states, so on a success path a detour
 * taken after this step (−0.5, wasted) pulled a right step's G to 0.445 and
 * it was never settled; and a later attempt that failed elsewhere, where the
 * credit did not blame this step (r_t = 0: it did what it meant to), halved
 * its mean. Either way the success was found and then lost (issue 35: seed 1
 * of the no-teacher quick run solved a task at attempt 4 and lost it at 5).
 */
export const SETTLED_RETURN = 0.5;
const SAME_STATE = 1 - 1e-9;

/** Transition ids written for a rejected proposal (see `buildTransitions`). */
export const isRejection = (transitionId: string): boolean => transitionId.includes(':rejected:');

export interface EstimateInput {
  /** The candidates as proposed (or as an earlier adjuster left them): z is `adjustedLogit`. */
  candidates: readonly Candidate[];
  /** N(s), best first (memory-only actions enter in this order). */
  neighbours: readonly Neighbour[];
  resolve: ResolveAction;
  /** Remembered actions not offered at this step (see `AdjustInput.skip`): neither candidates nor stale. */
  skip?: (semantic: string) => boolean;
  /** Neighbours whose action named another instance's row (carried-rows.ts): in V, evidence for no action. */
  otherInstance?: ReadonlySet<string>;
  settings: Pick<JitrlSettings, 'lambda' | 'alpha' | 'beta' | 'normalization' | 'advantageFloor'> & Partial<Pick<JitrlSettings, 'bars' | 'exploitSettled' | 'learnCorrections'>>;
  /** Drawn once per unseen candidate, in candidate order (the λ branch of Eq. 6). */
  random: RandomSource;
  /** The concrete URL: bars and settled actions need this very page, not another instance of its type. */
  url?: string;
}

export interface EstimateOutput {
  /** The candidates, memory-only ones appended, with z′ and JitRL's evidence under its id. */
  candidates: Candidate[];
  v: number | null;
  /** Distinct memory actions that no longer resolve on the current page. */
  droppedMemoryActions: number;
  /** The transitions behind those actions: the learner marks them stale. */
  droppedTransitionIds: string[];
  notes: string[];
}

/**
 * Eq. 25 (`max-abs`): Ã = A / (max|A| + ε), so Ã ∈ [−1, 1].
 * `max-positive` (the authors' code): Ã = A / max(A) over positive A, so the
 * best action gets exactly 1 and worse ones may fall below −1. When no
 * advantage is positive that divisor does not exist; we then fall back to
 * max|A| + ε, so the negatives still push down, by at most β.
 *
 * `floor` (our addition, `advantageFloor`): the divisor is never below it.
 * Eq. 25 turns any advantage, however small, into ±1: a later step's failure
 * reaching an early step through γ (G = −0.01) would move every other
 * candidate there by a full β and overturn a correct step. With the floor at
 * one unit of reward, advantages of that size or larger normalize as in the
 * paper, and smaller ones stay proportionally small. 0 is the paper.
 */
export function normalizeAdvantages(advantages: readonly number[], mode: JitrlSettings['normalization'], floor = 0): number[] {
  const maxAbs = advantages.reduce((m, a) => Math.max(m, Math.abs(a)), 0);
  const maxPositive = advantages.reduce((m, a) => Math.max(m, a), 0);
  const divisor = mode === 'max-positive' && maxPositive > 0 ? Math.max(maxPositive, floor) : Math.max(maxAbs, floor) + NORMALIZATION_EPSILON;
  return advantages.map((a) => a / divisor);
}

/**
 * Whether a neighbour counts as evidence about its action here (Q, Eq. 5, and
 * the memory-only candidates). A failure stays on its own page: what failed on
 * product 203 (its "Add to cart" was blamed for adding the wrong product) says
 * nothing about the same button on product 202, as for bars. Successes on
 * sibling pages transfer (the page type is how JitRL generalizes to instances
 * it has not seen). V still averages every neighbour, failures of sibling
 * pages included, so V is not biased upward on a new instance (issue 23).
 */
export function countsForAction(n: Neighbour, url: string | undefined): boolean {
  return url === undefined || n.ret >= 0 || n.transition.url === undefined || samePage(n.transition.url, url);
}

const NO_VALUE: JitrlCandidateEvidence = { q: null, advantage: null, normAdvantage: null, support: 0, valueKind: 'none' };

export function estimateValues(input: EstimateInput): EstimateOutput {
  const notes: string[] = [];
  const entries: Candidate[] = [];
  const seen = new Set<string>();

  for (const c of input.candidates) {
    if (seen.has(c.semantic)) {
      notes.push(`duplicate candidate ${c.semantic} ignored`);
      continue;
    }
    seen.add(c.semantic);
    entries.push(c);
  }

  // Eq. 23: add the neighbours' actions the model did not propose, if they
  // still resolve on this page, below every model candidate (MEMORY_ONLY_MARGIN).
  const modelLogits = entries.map((e) => e.adjustedLogit);
  const memoryLogit = modelLogits.length === 0 ? 0 : Math.min(...modelLogits) - MEMORY_ONLY_MARGIN;
  let dropped = 0;
  const droppedActions = new Set<string>();
  const tried = new Set<string>();
  const evidence = input.neighbours.filter((n) => countsForAction(n, input.url) && !(input.otherInstance?.has(n.transition.id) ?? false));
  for (const n of evidence) {
    const semantic = n.transition.action;
    if (seen.has(semantic) || tried.has(semantic)) continue;
    tried.add(semantic);
    if (input.skip?.(semantic)) continue;
    const page = input.resolve(semantic);
    if (page === null) {
      dropped++;
      droppedActions.add(semantic);
      continue;
    }
    // A loose match (e.g. by name substring) can land on an element a model
    // candidate already targets: that is the same action, not a new one.
    if (page.semantic !== semantic && seen.has(page.semantic)) continue;
    seen.add(semantic);
    seen.add(page.semantic);
    // Shown as the element it will really act on; valued by what was remembered.
    entries.push(memoryCandidate(page, memoryLogit, semantic));
  }
  const droppedIds = evidence.filter((n) => droppedActions.has(n.transition.action)).map((n) => n.transition.id);
  if (dropped > 0) notes.push(`${dropped} memory action(s) no longer on this page, dropped`);

  if (input.neighbours.length === 0) {
    const candidates = withProbabilities(entries.map((e) => withEvidence(e, JITRL_ID, NO_VALUE)));
    return { candidates, v: null, droppedMemoryActions: dropped, droppedTransitionIds: droppedIds, notes };
  }

  const { lambda, alpha, beta, normalization } = input.settings;
  const here = sameState(input.neighbours, input.url);
  const keyOf = (e: Candidate): string => e.remembered ?? e.semantic;
  // Bars and settled exploitation are our additions, each behind its setting (default on).
  const barsOn = input.settings.bars ?? true;
  const settledOn = input.settings.exploitSettled ?? true;
  const taughtOn = input.settings.learnCorrections ?? true;
  const barred = entries.map((e) => (barsOn ? barOf(keyOf(e), here, taughtOn) : undefined));
  const settled = entries.map((e, i) => settledOn && !barred[i] && (settledHere(keyOf(e), here) || (taughtOn && correctedHere(keyOf(e), here))));
  const n = input.neighbours.length;
  const v = input.neighbours.reduce((sum, nb) => sum + nb.ret, 0) / n; // Eq. 4

  const valued = entries.map((e) => {
    const support = evidence.filter((nb) => nb.transition.action === keyOf(e));
    if (support.length > 0) {
      const q = support.reduce((sum, nb) => sum + nb.ret, 0) / support.length; // Eq. 5
      return { q, support: support.length, valueKind: 'known' as const };
    }
    // Eq. 6: optimism under uncertainty with probability λ, else a neutral 0.
    if (input.random.next() < lambda) return { q: v + alpha / n, support: 0, valueKind: 'optimistic' as const };
    return { q: 0, support: 0, valueKind: 'neutral' as const };
  });

  const advantages = valued.map((x) => x.q - v); // Eq. 7
  const normalized = normalizeAdvantages(advantages, normalization, input.settings.advantageFloor); // Eq. 25

  const candidates = withProbabilities(entries.map((e, i): Candidate => {
    const x = valued[i]!;
    const value: JitrlCandidateEvidence = { q: x.q, advantage: advantages[i] ?? 0, normAdvantage: normalized[i] ?? 0, support: x.support, valueKind: x.valueKind };
    return withEvidence({
      ...e,
      adjustedLogit: e.adjustedLogit + beta * (normalized[i] ?? 0), // Eq. 10
      ...(barred[i] ? { barred: barred[i] } : {}),
      ...(settled[i] ? { settled: true } : {}),
    }, JITRL_ID, value);
  }));
  const barredCount = barred.filter(Boolean).length;
  if (barredCount > 0) notes.push(`${barredCount} candidate(s) barred in this state (rejected, or blamed for a failure here)`);
  return { candidates, v, droppedMemoryActions: dropped, droppedTransitionIds: droppedIds, notes };
}

/**
 * The neighbours taken in this very state: similarity 1 (same page type,
 * effective state and task) and, when both are known, the same URL — product
 * 202 and product 203 share a page type, but what failed on one says nothing
 * about the other's button.
 */
function sameState(neighbours: readonly Neighbour[], url: string | undefined): Neighbour[] {
  return neighbours.filter((n) => n.similarity >= SAME_STATE && (url === undefined || n.transition.url === undefined || samePage(n.transition.url, url)));
}

/**
 * Whether this action is settled in this very state (see SETTLED_RETURN): the
 * mean of its own rewards r_t there is at least SETTLED_RETURN, over the
 * transitions that say something about the step itself. A row with r_t = 0
 * does not: the credit rule gives 0 to an unrated step that a failure did not
 * blame and to any step of a stopped episode (rewards.ts), and neither says
 * the step was wrong. A blamed failure (−1), a wasted step (−0.5) or a
 * rejection (−1) is evidence and pulls the mean down.
 */
function settledHere(action: string, neighbours: readonly Neighbour[]): boolean {
  const rated = neighbours.filter((n) => n.transition.action === action && n.transition.reward !== 0);
  return rated.length > 0 && rated.reduce((s, n) => s + n.transition.reward, 0) / rated.length >= SETTLED_RETURN;
}

/**
 * The distinct actions barred in this very state (see BARRED_RETURN): what
 * the request widens the candidate pool by, so a barred action never takes
 * the place of one not tried yet (`JitrlLearner.shapeRequest`).
 */
export function barredActionsHere(neighbours: readonly Neighbour[], url: string | undefined): string[] {
  const here = sameState(neighbours, url);
  return [...new Set(here.map((n) => n.transition.action))].filter((a) => barOf(a, here) !== undefined);
}

/**
 * The person put this action in place of the proposal in this very state (a
 * correction): it is proposed first here next time, whatever became of the
 * rest of that attempt (issue 22), until the agent's own evidence fails it.
 */
function correctedHere(action: string, neighbours: readonly Neighbour[]): boolean {
  return neighbours.some((n) => n.transition.action === action && n.transition.taught === 'corrected');
}

/**
 * Why this action is barred in this state, if it is (see BARRED_RETURN):
 * - 'rejected': the person rejected it here (or corrected it away), and no
 *   later evidence supports it — no later approval or correction to it, no
 *   later return of half a success;
 * - 'failed': the returns of the agent's own steps here average at most
 *   BARRED_RETURN. A step the person corrected to is not the agent's call: a
 *   failure later in that attempt does not bar it.
 */
function barOf(action: string, neighbours: readonly Neighbour[], taughtOn = true): Barred | undefined {
  const here = neighbours.filter((n) => n.transition.action === action);
  if (here.length === 0) return undefined;
  // A rejection on another instance of the template lowers the action's value here
  // but does not bar it: what that instance's person chose instead may not exist on this page.
  const rejections = here.filter((n) => isRejection(n.transition.id) && !(taughtOn && isRebound(n.transition.id)));
  const taken = here.filter((n) => !isRejection(n.transition.id));
  if (rejections.length > 0) {
    if (!taughtOn) return 'rejected';
    const last = Math.max(...rejections.map((n) => n.transition.createdAt));
    const supported = taken.some((n) => n.transition.createdAt > last
      && (n.transition.taught === 'approved' || n.transition.taught === 'corrected' || n.ret >= SETTLED_RETURN));
    if (!supported) return 'rejected';
  }
  const own = taughtOn ? taken.filter((n) => n.transition.taught !== 'corrected') : taken;
  if (own.length === 0) return undefined;
  const mean = own.reduce((s, n) => s + n.ret, 0) / own.length;
  return mean <= BARRED_RETURN ? 'failed' : undefined;
}
