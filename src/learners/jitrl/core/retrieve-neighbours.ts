/**
 * JitRL retrieval, Step 1 of Algorithm 1 with the two-stage web matching of
 * App. F: first the page type (same origin and regularized URL, read through
 * the store's index), then a task-similarity floor and, for another task, only
 * actions not bound to that task's own words (`task-binding.ts`), then
 * score = w_h·J(effective state) + w_t·J(task) (Eq. 24) against a threshold r
 * and, optionally, the top-k cut.
 */
import type { JitrlSettings } from './settings.ts';
import { jaccard } from '../../../core/page/tokenize.ts';
import { newestFirst, type MemoryStore, type Neighbour, type Transition } from './transition.ts';
import { returnOf } from './returns.ts';
import { boundToOtherTask } from '../../../core/page/task-binding.ts';
import { samePage } from '../../../core/page/same-page.ts';
import { instanceValues, mentionsValues, rebindValues } from '../../../core/page/task-instances.ts';
import { rebindAction } from '../../../core/page/rebind-action.ts';
import { entryMarks, stateTokensOf, taskWords, tokenize } from '../../../core/page/tokenize.ts';
import { answerAt } from '../../../core/page/answer-source.ts';
import { formatAction, parseAction } from '../../../core/page/action-grammar.ts';
import type { PageObservation } from '../../../core/page/observation.ts';

/**
 * How many of a page type's newest transitions one decision reads. Bounds the
 * cost of a decision independently of how much memory has accumulated (the
 * benchmark's target); on a page type with more history, the oldest
 * experience stops counting, which also keeps estimates close to the current
 * site and policy (App. C's non-stationary setting).
 */
export const PAGE_READ_LIMIT = 300;

/**
 * Stale memory is demoted, not dropped: every time a transition's action
 * failed to resolve on its page type, its similarity is scaled by this. On
 * r = 0.8 a perfect match stops being retrieved after three misses; the row
 * stays in memory, counted and shown as stale, until the person deletes it.
 */
export const STALE_DEMOTION = 0.9;

export interface RetrievalQuery {
  origin: string;
  regUrl: string;
  /** Tokens of the current effective state (`stateTokensOf`). */
  stateTokens: readonly string[];
  /** Tokens of the current task (`tokenize`). */
  taskTokens: readonly string[];
  /** 0-based step index: r decays with it. */
  stepIndex: number;
  /** The concrete URL, for the same-instance preference (`preferSameUrl`). */
  url?: string;
  /** The task's text: what the person taught on another instance of its template is rebound to its values (`reboundToTask`). */
  task?: string;
  /** The current page: a taught answer of another instance is read from where it showed (`reboundToTask`). */
  observation?: Pick<PageObservation, 'nodes'>;
}

/** The id suffix of a transition rewritten from another instance of the task's template. */
export const REBOUND_SUFFIX = '@instance';
export const isRebound = (transitionId: string): boolean => transitionId.endsWith(REBOUND_SUFFIX);

/** Transitions rewritten from another instance of the task's template (they stand for this instance's page), with the values rewritten. */
const rebound = new WeakMap<Transition, ReadonlyMap<string, string>>();

/**
 * Rebound transitions whose action still names the other instance's item by
 * a word of its task: a user's login link "lee" for "Lee Chen". Evidence only
 * once moved to this instance's row (carried-rows.ts); never as they are.
 */
const namingOther = new WeakSet<Transition>();
export const namesOtherInstance = (t: Transition): boolean => namingOther.has(t);

/**
 * The other instance's values (lower case) → this task's, for a neighbour
 * remembered on another instance of the task's template (rewritten or not);
 * null for one of this very task, or of another template.
 */
export function carriedValues(t: Transition, task: string): ReadonlyMap<string, string> | null {
  return rebound.get(t) ?? (t.task === task ? null : instanceValues(t.task, task));
}

/** Whether an action in semantic form acts on an element (an answer does not). */
const targetsAnElement = (semantic: string): boolean => {
  const parsed = parseAction(semantic);
  return parsed.ok && 'target' in parsed.action && parsed.action.target !== undefined;
};

/**
 * What the person taught (approved, corrected, rejected) on another instance
 * of this task's template, in this task's values: "Add the Kettle to my cart"
 * taught `fill(<searchbox "Search">, "Kettle")`, so for "Add the Desk lamp to
 * my cart" it is `fill(<searchbox "Search">, "Desk lamp")` — the action, the
 * effective state and the task rebound (memory/task-instances.ts). The
 * concrete URL was the other instance's page, so only the page type stays.
 * Anything else is returned as it is.
 */
export function reboundToTask(t: Transition, task: string, observation?: Pick<PageObservation, 'nodes'>): Transition {
  if (t.taught === undefined || t.task === task) return t;
  const values = instanceValues(t.task, task);
  if (values === null) return t;
  const taskTokens = tokenize(task);
  // An answer names its own task's item: this instance's is read from where that one showed (page/answer-source.ts).
  const answer = t.answerFrom !== undefined && observation !== undefined ? answerAt(t.answerFrom, observation) : null;
  const action = answer !== null ? formatAction({ type: 'send_msg_to_user', text: answer }) : rebindAction(t.action, values);
  // An action that still names the other instance's particulars (a login link "lee" in Lee Chen's
  // row, a name a value sits inside) is carried only to be moved to this instance's row, never as it
  // is (`namesOtherInstance`).
  // Still showing one of the other instance's values (a value inside a longer option, "(UTC+01:00) Berlin",
  // is not rebound: page/rebind-action.ts) names that instance too, whatever task words it shares.
  const namesOther = answer === null && (boundToOtherTask(action, tokenize(t.task), taskTokens) || mentionsValues(action, values));
  // An answer or other untargeted action that names them has no row to move to: it stays that instance's,
  // and the task-binding rule keeps it out (never "this very task" with another's values).
  if (namesOther && !targetsAnElement(action)) return t;
  // The state is compared, never acted on: its values are rewritten wherever they stand as whole words,
  // so "(UTC+01:00) Berlin" chosen there reads as this task's value (stateTokensOf), as the page will show it.
  const effectiveState = t.effectiveState.map((e) => rebindValues(e, values));
  const { url: _otherInstance, ...rest } = t;
  const out: Transition = {
    ...rest,
    id: `${t.id}${REBOUND_SUFFIX}`,
    action,
    effectiveState,
    stateTokens: stateTokensOf(effectiveState, taskWords(task)),
    task,
    taskTokens,
  };
  rebound.set(out, values);
  if (namesOther) namingOther.add(out);
  return out;
}

/**
 * The similarity threshold at a step. The paper uses a fixed r; the authors'
 * code lowers it linearly with the step number to a floor, because later
 * steps have longer, rarer effective states. `thresholdFloor = threshold` turns
 * the decay off (our default).
 */
export function thresholdAt(stepIndex: number, settings: Pick<JitrlSettings, 'threshold' | 'thresholdFloor' | 'thresholdDecaySteps'>): number {
  const progress = Math.min(1, Math.max(0, stepIndex) / settings.thresholdDecaySteps);
  return settings.threshold - (settings.threshold - settings.thresholdFloor) * progress;
}

/**
 * A stored row's state tokens with its entry marks: rows written before the
 * marks (`entryMarks`) get them from their effective state, so the same state
 * is still similarity 1; on newer rows the union changes nothing.
 */
function storedStateTokens(t: Transition): readonly string[] {
  const marks = entryMarks(t.effectiveState);
  return marks.every((m) => t.stateTokens.includes(m)) ? t.stateTokens : [...new Set([...t.stateTokens, ...marks])];
}

/** Scores candidate transitions of the same page type (the pure part of retrieval; no store access). */
export function rankNeighbours(rows: readonly Transition[], query: RetrievalQuery, settings: JitrlSettings): Neighbour[] {
  const r = thresholdAt(query.stepIndex, settings);
  const scored: { transition: Transition; similarity: number }[] = [];
  for (const stored of rows) {
    const transition = query.task === undefined || settings.learnCorrections === false ? stored : reboundToTask(stored, query.task, query.observation);
    const taskSimilarity = jaccard(query.taskTokens, transition.taskTokens);
    // App. H: a neighbour must share enough of the task (strictly above the floor).
    if (taskSimilarity <= settings.taskFloor) continue;
    // Another task's particulars are not evidence for this one (memory/task-binding.ts).
    if (boundToOtherTask(transition.action, transition.taskTokens, query.taskTokens)) continue;
    const similarity = (settings.stateWeight * jaccard(query.stateTokens, storedStateTokens(transition)) + settings.taskWeight * taskSimilarity)
      * STALE_DEMOTION ** (transition.stale ?? 0);
    // Tolerance: 0.7·1 + 0.3·0.5 must pass r = 0.85 despite floating point.
    if (similarity + 1e-12 < r) continue;
    scored.push({ transition, similarity });
  }
  scored.sort((a, b) => b.similarity - a.similarity || newestFirst(a.transition, b.transition));
  // Backoff: evidence from this very URL, when there is any, outranks the page type's.
  const url = query.url;
  if (settings.preferSameUrl && url !== undefined) {
    const same = scored.filter((s) => s.transition.url !== undefined && samePage(s.transition.url, url));
    // What the person taught on another instance stands for this page too.
    if (same.length > 0) scored.splice(0, scored.length, ...scored.filter((s) => rebound.has(s.transition) || same.includes(s)));
  }
  const valued = scored.map(({ transition, similarity }) => ({ transition, similarity, ret: returnOf(transition, settings.gamma) }));
  // Every neighbour is kept, failures of sibling pages included: V (Eq. 4) is
  // the mean over all of N(s). Which of them count for an action's Q is
  // `estimateValues`' rule (`countsForAction`).
  return settings.useTopK ? valued.slice(0, settings.k) : valued;
}

/** N(s): the neighbours of the current state, best first. */
export async function retrieveNeighbours(
  store: MemoryStore,
  query: RetrievalQuery,
  settings: JitrlSettings,
  pageReadLimit: number = PAGE_READ_LIMIT,
): Promise<Neighbour[]> {
  const rows = await store.byPage(query.origin, query.regUrl, pageReadLimit);
  return rankNeighbours(rows, query, settings);
}
