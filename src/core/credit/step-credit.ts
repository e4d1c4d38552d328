/**
 * Per-step credit without a model. The learning method gives each step its own reward from
 * an LLM evaluator (§4.1, "Reflective Step-wise Rewards"), whose guide scores
 * a useless or harmful action negative and an action with "no real effect or
 * effect immediately undone" 0 — never the trajectory's outcome (App. G.1.2).
 * Offline there is no evaluator, and giving every step the same share of the
 * outcome makes one failure push every step's alternatives up alike. So the
 * page itself is the evidence (`pageKeyOf` before each step):
 *
 * - `no_change`: the page after the step shows what it showed before;
 * - `undone`: the step brought the page back to a state seen before an
 *   earlier step (A → B → A); the steps of that loop are `loop`;
 * - `error`: the action failed to run.
 *
 * Such steps are wasted: on a success they are penalized instead of credited,
 * and a failure is blamed on them (on the undoing step of a loop, not on the
 * steps it undid). A failure is also blamed on the last step taken against
 * the base policy's own preference (the chosen candidate's base logit below
 * another's: where sampling explored) before that evidence. Where a failure
 * leaves neither, it is blamed on the step where the base policy was least
 * sure (the smallest gap between the chosen candidate's base logit and the
 * best other one): that is the step most likely to have been a wrong call,
 * and the one the next attempt should change first. The issue asks for both ("where the base
 * policy was least sure, and where the failure's evidence points"). The
 * combination is in `rewards.ts`.
 *
 * A `detour` (issue 23) is a wrong-item detour that changed state
 * (`wrongItemDetours`): on a success it earns no credit (wasted), and a
 * failure blames it, the step that went to the wrong item first.
 */

import { isTaskValue, tokenize } from '../page/tokenize.ts';
import { parseAction } from '../page/action-grammar.ts';
import { withoutFragment } from '../page/same-page.ts';

export type StepEvidence = 'no_change' | 'undone' | 'loop' | 'error' | 'detour' | null;

export interface CreditStep {
  /** `pageKeyOf` the page when the step was proposed; null when unknown. */
  pageKey: string | null;
  /** Semantic action. */
  action: string;
  ok: boolean;
  /** Base-logit gap between the chosen action and the best other candidate; null when unknown. */
  margin: number | null;
  /** The page's URL and page type (regularized URL) when the step was proposed, when known. */
  url?: string;
  regUrl?: string;
}

const isAnswer = (action: string): boolean => /^(send_msg_to_user|report_infeasible)\(/.test(action);

/**
 * Detours on the wrong item, which the page keys miss when the detour changed
 * state ("Add to wish list" on the wrong product: the list page comes back
 * with a wish-list count, not as it was). An instance of a page type (one URL)
 * is abandoned when the episode later works on another instance of the same
 * page type and never comes back. It was the wrong item when the step that
 * led there named something other than what the task names (`isTaskValue`:
 * "Red mug" for "add the red teapot"). That step (the real mistake) and every
 * step taken on the abandoned instance are the detour. An instance entered
 * through a name the task gives (the mug of "add the mug and the teapot") is
 * not a detour, nor one entered without a name (nothing says it was wrong).
 */
export function wrongItemDetours(steps: readonly CreditStep[], taskTokens: readonly string[]): boolean[] {
  const out = steps.map(() => false);
  const urls = steps.map((s) => (s.url === undefined ? null : withoutFragment(s.url)));
  for (let first = 0; first < steps.length; first++) {
    const url = urls[first];
    const regUrl = steps[first]!.regUrl;
    if (url === null || url === undefined || regUrl === undefined || urls.indexOf(url) !== first || first === 0) continue;
    const last = urls.lastIndexOf(url);
    const abandoned = steps.some((s, j) => j > last && s.regUrl === regUrl && urls[j] !== null && urls[j] !== url);
    if (!abandoned || urls[first - 1] === url) continue;
    const name = targetName(steps[first - 1]!.action);
    if (name === null || isTaskValue(tokenize(name), taskTokens)) continue;
    out[first - 1] = true;
    for (let k = first; k <= last; k++) if (urls[k] === url) out[k] = true;
  }
  return out;
}

function targetName(semantic: string): string | null {
  const parsed = parseAction(semantic);
  if (!parsed.ok || !('target' in parsed.action) || parsed.action.target?.kind !== 'semantic') return null;
  return parsed.action.target.name.trim() || null;
}

/**
 * The steps the attempt's way is made of, its loops cut out: from the page the
 * last step acted on, back to the start, each page counts as reached by the
 * step that first reached it (page keys; the way stops where a key is
 * unknown). Of A → B → A → B → C that is A → B (step 0) and B → C (step 3):
 * the round B → A → B (steps 1 and 2) is the detour, not the step that first
 * went to B. Marking every step of every loop instead gave step 0 −0.5 on a
 * success: its state's right action was penalized (issue 35, session 12).
 */
function wayThrough(steps: readonly CreditStep[]): Set<number> {
  const way = new Set<number>();
  let at = steps.length - 1;
  while (at > 0) {
    const key = steps[at]!.pageKey;
    if (key === null) break;
    const first = steps.findIndex((s) => s.pageKey === key);
    if (first <= 0) break;
    way.add(first - 1);
    at = first - 1;
  }
  return way;
}

/**
 * Evidence per executed step (the page after step t is the page before step
 * t + 1; the last step's is unknown). With the task's words (`taskWords`:
 * in order, repeats kept), wrong-item detours too (`wrongItemDetours`).
 */
export function stepEvidence(steps: readonly CreditStep[], taskTokens?: readonly string[]): StepEvidence[] {
  const out: StepEvidence[] = steps.map((s) => (s.ok ? null : 'error'));
  for (let t = 0; t + 1 < steps.length; t++) {
    const before = steps[t]!.pageKey;
    const after = steps[t + 1]!.pageKey;
    if (before === null || after === null || isAnswer(steps[t]!.action)) continue;
    if (after === before) {
      out[t] ??= 'no_change';
      continue;
    }
    let back = -1;
    for (let j = 0; j < t; j++) if (steps[j]!.pageKey === after) { back = j; break; }
    if (back < 0) continue;
    out[t] = out[t] === 'error' ? 'error' : 'undone';
    for (let j = back; j < t; j++) out[j] ??= 'loop';
  }
  // A loop's step that a later step brought back (A → B → A → B: the go_back
  // restored B, and the attempt went on from B) is the way, not the detour.
  const way = wayThrough(steps);
  out.forEach((e, t) => { if (e === 'loop' && way.has(t)) out[t] = null; });
  if (taskTokens) wrongItemDetours(steps, taskTokens).forEach((d, t) => { if (d && (out[t] === null || out[t] === 'loop')) out[t] = 'detour'; });
  return out;
}

/**
 * Which steps a failure is blamed on:
 * - the ones that changed nothing, undid an earlier step or failed to run
 *   (the page's evidence);
 * - and the last step taken against the base policy's own preference
 *   (negative margin: sampling, or a bar, chose a candidate the policy ranked
 *   below another) before the first such evidence, or before the end when
 *   there is none. That is where the agent explored just before things went
 *   wrong; the exploration did not pay, so the next attempt (or the next
 *   instance of the task, through Eq. 10) should go back to what the policy
 *   preferred there. Earlier explorations led somewhere that still looked
 *   fine, and a step the policy itself ranked first is not blamed for a
 *   wander that started elsewhere.
 * If neither exists, the least-sure step (latest on ties, nearer the
 * failure). Null when there is no evidence and no margin at all
 * (demonstrations, imports): the caller keeps its uniform rule.
 */
export function blameOnFailure(steps: readonly CreditStep[], taskTokens?: readonly string[]): boolean[] | null {
  // The steps inside a loop are not blamed, only the one that undid them: of
  // A → B → A, either move may have been the wrong one (a correct step can be
  // undone by a wrong one), and the in-episode loop bar already keeps the
  // agent from going round again.
  const evidence = stepEvidence(steps, taskTokens).map((e) => (e === 'loop' ? null : e));
  const firstEvidence = evidence.findIndex((e) => e !== null);
  const before = firstEvidence < 0 ? steps.length : firstEvidence;
  let explored = -1;
  for (let i = 0; i < before; i++) {
    const m = steps[i]!.margin;
    if (m !== null && Number.isFinite(m) && m < 0) explored = i;
  }
  const blamed = steps.map((_, i) => evidence[i] !== null || i === explored);
  if (blamed.some(Boolean)) return blamed;
  let least = -1;
  steps.forEach((s, i) => {
    if (s.margin === null || !Number.isFinite(s.margin)) return;
    if (least < 0 || s.margin <= steps[least]!.margin!) least = i;
  });
  if (least < 0) return null;
  return steps.map((_, i) => i === least);
}
