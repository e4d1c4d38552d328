/**
 * What the offline policy reads off the page and the task before it scores
 * anything (offline-policy.ts): the task's intents, each line's heading and
 * label context, the step history as sets, what to type into a search field,
 * and which of the task's field values are still to be typed here, with the
 * form's submit button. Also the score board every cue writes to.
 */
import { formatAction } from '../page/action-grammar.ts';
import type { Action } from '../page/action.ts';
import type { PageObservation, SnapshotNode } from '../page/observation.ts';
import { semanticKey } from '../page/semantic-action.ts';
import { samePage } from '../page/same-page.ts';
import type { PolicyInput, StepHistoryItem } from './policy.ts';
import { analyzeTask, terms, type FieldIntent, type TaskIntents } from './task-intents.ts';
import { OFFLINE_WEIGHTS, SUBMIT_WORDS, TEXT_ROLES } from './offline-weights.ts';
import { contextTerms, intentForField, isSearchField, showsNamedThing } from './offline-cues.ts';
import { isMask } from '../secrets/secret-kinds.ts';

export interface Scored {
  action: Action;
  score: number;
  reasons: string[];
  /** Document order, for deterministic ties. */
  order: number;
}

/** Every action considered, by its ref form; `put` keeps an action's best score. */
export class ScoreBoard {
  readonly scored = new Map<string, Scored>();

  put(action: Action, score: number, reason: string, order: number): void {
    const key = formatAction(action);
    const prev = this.scored.get(key);
    if (!prev || score > prev.score) this.scored.set(key, { action, score, reasons: [reason], order });
  }
}

/** The page and the task as the scorer reads them. */
export interface OfflineReading {
  obs: PageObservation;
  intents: TaskIntents;
  /** Per node, the terms of its heading and label context. */
  context: Set<string>[];
  byRef: Map<string | null, SnapshotNode>;
  /** An action's semantic key, as history records it. */
  keyOf(action: Action): string;
  history: StepHistoryItem[];
  lastAction: string | undefined;
  failed: Set<string>;
  doneBefore: Set<string>;
  doneHere: Set<string>;
  /** How many times each action was refused as `obscured` on this page: each time lowers it again. */
  obscuredHere: Map<string, number>;
  /** What to type into a search field, and what typing it is worth. */
  searchQuery: string | null;
  searchGain: number;
  fields: FieldPlan;
}

/** The task's field values on this page: which are typed, which still pending, and the submit button after them. */
export interface FieldPlan {
  pendingFields: number;
  filledFields: number;
  intents: Map<SnapshotNode, FieldIntent>;
  /** Pending fields in document order: 0 for the first still to type. */
  pendingRank: Map<SnapshotNode, number>;
  /** Document index of the form's submit button; -1 when none. */
  submitIndex: number;
}

/** A button whose name says it submits (Save, Sign in, …). */
export const isSubmitLike = (n: SnapshotNode): boolean => n.ref !== null && n.role === 'button' && !n.states.disabled && [...terms(n.name)].some((t) => SUBMIT_WORDS.has(t));

export function readPage(input: PolicyInput): OfflineReading {
  const obs: PageObservation = input.observation;
  const intents: TaskIntents = analyzeTask(input.task);
  const context = contextTerms(obs.nodes);
  // semanticKey looks the ref up with a linear scan; index the nodes once so a big page stays linear.
  const byRef = new Map(obs.nodes.filter((n) => n.ref !== null).map((n) => [n.ref, n]));
  const keyOf = (action: Action): string => {
    const ref = 'target' in action && action.target?.kind === 'ref' ? action.target.ref : null;
    const n = ref === null ? undefined : byRef.get(ref);
    return semanticKey(action, n ? { ...obs, nodes: [n] } : obs);
  };
  const history = input.history;
  const lastAction = history[history.length - 1]?.action;
  const failed = new Set(history.filter((h) => h.outcome !== 'ok').map((h) => h.action));
  const doneBefore = new Set(history.filter((h) => h.outcome === 'ok').map((h) => h.action));
  const doneHere = new Set(history.filter((h) => h.outcome === 'ok' && samePage(h.url, obs.url)).map((h) => h.action));
  const obscuredHere = new Map<string, number>();
  for (const h of history) if (h.outcome.startsWith('obscured:') && samePage(h.url, obs.url)) obscuredHere.set(h.action, (obscuredHere.get(h.action) ?? 0) + 1);

  // What to type into a search field: the query the task asks for, else the
  // thing it names when this page shows no trace of it (a person searches for it).
  const searchQuery = intents.searchQuery ?? (intents.namedThing !== null && !showsNamedThing(obs.nodes, intents.namedThing) ? intents.namedThing : null);
  const searchGain = intents.searchQuery !== null ? OFFLINE_WEIGHTS.searchFill : OFFLINE_WEIGHTS.searchUnseen;
  const fields = planFields(obs, intents, searchQuery, keyOf, doneBefore, history);
  return { obs, intents, context, byRef, keyOf, history, lastAction, failed, doneBefore, doneHere, obscuredHere, searchQuery, searchGain, fields };
}

function planFields(
  obs: PageObservation,
  intents: TaskIntents,
  searchQuery: string | null,
  keyOf: (action: Action) => string,
  doneBefore: ReadonlySet<string>,
  history: readonly StepHistoryItem[],
): FieldPlan {
  let pendingFields = 0;
  let filledFields = 0;
  let lastFieldOrder = -1;
  const fieldPlan = new Map<SnapshotNode, FieldIntent>();
  const pendingRank = new Map<SnapshotNode, number>();
  obs.nodes.forEach((n, order) => {
    if (n.ref === null || !TEXT_ROLES.has(n.role) || n.states.disabled) return;
    const intent = isSearchField(n) && searchQuery ? null : intentForField(n, intents.fields);
    const query = isSearchField(n) ? searchQuery : null;
    const wanted = intent?.value ?? query;
    if (wanted === null || wanted === undefined) return;
    lastFieldOrder = order;
    if (intent) fieldPlan.set(n, intent);
    const fillKey = keyOf({ type: 'fill', target: { kind: 'ref', ref: n.ref }, text: wanted });
    const holds = n.value === wanted || (n.value !== undefined && isMask(n.value)) || doneBefore.has(fillKey);
    if (holds) filledFields++;
    else pendingRank.set(n, pendingFields++);
  });
  // The form's submit button: the first submit-like button after the last field the task fills.
  // A setting changed on this page (a selected option, a ticked box) also wants saving:
  // then the first submit-like button is the one to press.
  const settingChangedHere = history.some((h) => h.outcome === 'ok' && samePage(h.url, obs.url) && /^(fill|select_option|check|uncheck)\(/.test(h.action));
  // A covered button (every click refused) is not the one to press when another does the same.
  const pressable = (n: SnapshotNode): boolean => isSubmitLike(n) && n.coveredBy === undefined;
  const submitIndex = lastFieldOrder < 0
    ? settingChangedHere ? obs.nodes.findIndex(pressable) : -1
    : obs.nodes.findIndex((n, i) => i > lastFieldOrder && pressable(n));
  if (lastFieldOrder < 0 && settingChangedHere) filledFields++;
  return { pendingFields, filledFields, intents: fieldPlan, pendingRank, submitIndex };
}
