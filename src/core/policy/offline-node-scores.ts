/**
 * The offline policy's cues for one element (offline-policy.ts): what its
 * name shares with the task, its role prior, and then by kind — a field the
 * task gives a value for, an option the task names, a checkbox the task turns
 * on or off, a link or button (with the form's submit button).
 */
import type { Action } from '../page/action.ts';
import type { SnapshotNode } from '../page/observation.ts';
import { samePage } from '../page/same-page.ts';
import { ownTerms, rawWords, terms } from './task-intents.ts';
import { CHECK_ROLES, CLICK_ROLES, OFFLINE_WEIGHTS, ROLE_PRIOR, TEXT_ROLES } from './offline-weights.ts';
import { isSearchField, overlap } from './offline-cues.ts';
import { isSubmitLike, type OfflineReading, type ScoreBoard } from './offline-reading.ts';
import { isMask } from '../secrets/secret-kinds.ts';

/** What every kind of element starts from. */
interface NodeCues {
  ref: { kind: 'ref'; ref: string };
  /** The terms of its name. */
  name: Set<string>;
  /** How many task terms its name shares. */
  matches: number;
  /** Name, coverage and context overlap with the task, in nats. */
  lexical: number;
  /** Role prior, the off-screen and the covered penalty. */
  base: number;
}

export function scoreNode(r: OfflineReading, board: ScoreBoard, n: SnapshotNode, order: number): void {
  if (n.ref === null || n.states.disabled) return;
  const { intents } = r;
  const ref = { kind: 'ref' as const, ref: n.ref };
  const name = terms(n.name);
  const matches = overlap(intents.terms, name);
  const synonymOnly = Math.max(0, matches - overlap(intents.ownTerms, ownTerms(n.name)));
  const lexical =
    OFFLINE_WEIGHTS.nameMatch * (matches - synonymOnly) +
    OFFLINE_WEIGHTS.synonymMatch * synonymOnly +
    (name.size > 0 ? OFFLINE_WEIGHTS.nameCoverage * (matches / name.size) : 0) +
    OFFLINE_WEIGHTS.contextMatch * overlap(intents.terms, r.context[order] ?? new Set());
  const base = (ROLE_PRIOR[n.role] ?? 0) + (n.inViewport ? 0 : OFFLINE_WEIGHTS.offscreen) + (n.coveredBy !== undefined ? OFFLINE_WEIGHTS.covered : 0);
  const cues: NodeCues = { ref, name, matches, lexical, base };

  if (TEXT_ROLES.has(n.role) && !(n.role === 'combobox' && n.options?.length)) return scoreTextField(r, board, n, order, cues);
  if ((n.role === 'combobox' || n.role === 'listbox') && n.options?.length) return scoreOptions(r, board, n, order, cues);
  if (CHECK_ROLES.has(n.role)) return scoreCheckbox(r, board, n, order, cues);
  if (CLICK_ROLES.has(n.role) || n.role === 'button') scoreClickable(r, board, n, order, cues);
}

/** Typing the task's value for this field (or the search), and pressing Enter on a typed search with no button. */
function scoreTextField(r: OfflineReading, board: ScoreBoard, n: SnapshotNode, order: number, { ref, base }: NodeCues): void {
  const { intents, obs } = r;
  const intent = r.fields.intents.get(n);
  const query = isSearchField(n) ? r.searchQuery : null;
  const value = intent?.value ?? query;
  if (value) {
    const action: Action = { type: 'fill', target: ref, text: value };
    const done = n.value === value || (n.value !== undefined && isMask(n.value)) || r.doneBefore.has(r.keyOf(action));
    const gain = intent ? OFFLINE_WEIGHTS.fillIntent : r.searchGain;
    const rank = OFFLINE_WEIGHTS.fieldOrder * (r.fields.pendingRank.get(n) ?? 0);
    const why = intent ? 'field value from the task' : intents.searchQuery !== null ? 'the search the task asks for' : 'search for what the task names (not on this page)';
    board.put(action, base + gain + rank + (done ? OFFLINE_WEIGHTS.alreadyDone : 0), why, order);
  }
  if (query && n.value === query && !obs.nodes.some((b) => b.ref !== null && b.role === 'button' && terms(b.name).has('search'))) {
    board.put({ type: 'press', target: ref, keys: 'Enter' }, base + OFFLINE_WEIGHTS.pressEnter, 'submit the search', order);
  }
}

/** Choosing the option of a select or listbox that the task names best. */
function scoreOptions(r: OfflineReading, board: ScoreBoard, n: SnapshotNode, order: number, { ref, base, lexical }: NodeCues): void {
  const { intents } = r;
  let best: { option: string; score: number } | null = null;
  for (const option of n.options ?? []) {
    if (option === n.value) continue;
    const optTerms = terms(option);
    const phrase = rawWords(option).join(' ');
    let s = OFFLINE_WEIGHTS.nameMatch * overlap(intents.terms, optTerms);
    if (phrase && ` ${intents.normalized} `.includes(` ${phrase} `)) s += OFFLINE_WEIGHTS.optionPhrase;
    if (intents.fields.some((f) => f.value.toLowerCase() === option.toLowerCase())) s += OFFLINE_WEIGHTS.fillIntent;
    if (s > 0 && (!best || s > best.score)) best = { option, score: s };
  }
  if (best) {
    board.put({ type: 'select_option', target: ref, option: best.option }, base + OFFLINE_WEIGHTS.selectOption + best.score + lexical, 'an option the task names', order);
  }
}

/** Ticking or unticking a box the task names, as the clause naming it says. */
function scoreCheckbox(r: OfflineReading, board: ScoreBoard, n: SnapshotNode, order: number, { ref, base, lexical, name, matches }: NodeCues): void {
  const { intents } = r;
  if (matches === 0) return;
  const checked = n.states.checked === true;
  // The clause naming this box decides on/off; failing that, the whole task.
  let bestClause: { polarity: 'on' | 'off'; overlap: number } | null = null;
  for (const c of intents.checkboxClauses) {
    const o = overlap(c.terms, name);
    if (o > 0 && (!bestClause || o > bestClause.overlap)) bestClause = { polarity: c.polarity, overlap: o };
  }
  const polarity = bestClause?.polarity ?? intents.checkbox;
  if (polarity === 'off' && checked) board.put({ type: 'uncheck', target: ref }, base + OFFLINE_WEIGHTS.checkboxIntent + lexical, 'the task turns this off', order);
  else if (polarity !== 'off' && !checked) {
    board.put({ type: 'check', target: ref }, base + (polarity === 'on' ? OFFLINE_WEIGHTS.checkboxIntent : 0) + lexical, 'the task turns this on', order);
  }
}

/** Clicking a link or button: its name's match, the form's submit button, a radio the task names, a link to this page. */
function scoreClickable(r: OfflineReading, board: ScoreBoard, n: SnapshotNode, order: number, { ref, base, lexical, matches }: NodeCues): void {
  const { intents, obs, fields } = r;
  let score = base + lexical;
  const reasons = [matches > 0 ? 'its name matches the task' : 'a control on the page'];
  const submitLike = isSubmitLike(n);
  if (submitLike && fields.pendingFields > 0) {
    score += OFFLINE_WEIGHTS.submitPending;
    reasons.push('fields are still empty');
  } else if (order === fields.submitIndex && fields.filledFields > 0) {
    score += OFFLINE_WEIGHTS.submitReady;
    reasons.push('the fields are filled');
  }
  if (n.role === 'radio' && intents.fields.some((f) => f.value.toLowerCase() === n.name.trim().toLowerCase())) score += OFFLINE_WEIGHTS.fillIntent;
  if (n.role === 'link' && n.href && samePage(n.href, obs.url)) score += OFFLINE_WEIGHTS.selfLink;
  board.put({ type: 'click', target: ref }, score, reasons.join('; '), order);
}
