/**
 * The effective state (the "local action history", docs/learning.md "Papers"): the earlier
 * actions on the current page type whose effects are plausibly still visible.
 * The paper asks a vision model to pick them from a screenshot (App. G.1.3);
 * an extension cannot afford that call every step, so this is a rule:
 *
 * 1. Only actions since the last arrival on the current regularized URL
 *    count: the trailing run of steps taken on this page. Anything before it,
 *    including the click that once navigated away from this page, is gone.
 * 2. Only successful actions.
 * 3. Only actions that leave state in the page: fill, select_option, check,
 *    uncheck, and clicks on stateful widgets (tabs, radios, checkboxes,
 *    switches, options, comboboxes, tree items, checkable menu items). Clicks
 *    on buttons and links, key presses, scrolls, hovers and focus leave
 *    nothing we can rely on (they submit, refresh or navigate, or are
 *    transient), as in the paper's example where `click(Refresh)` is dropped.
 * 4. One entry per element: a later fill/select/check of the same element
 *    supersedes the earlier one (the paper's "overwritten input"), and
 *    `clear` removes it. Entries keep the order of their latest action.
 *    A fill that is a change of the field's text (append, insert, …:
 *    text-change.ts) overwrites nothing: two lines appended are both in the
 *    field, so both are kept, after the field's last whole value, until a
 *    whole value or a clear replaces them all.
 *
 * 5. When the current page is given, an entry the page contradicts is
 *    dropped: the field no longer holds the typed text, the dropdown shows
 *    another option, the box is in the other state. This is the paper's
 *    "plausibly still visible" read from the snapshot instead of a
 *    screenshot: a setting a "Discard changes" button reverted is gone, so
 *    what happens next is not filed under a state the page is not in.
 *    An element the page no longer shows, or whose value it hides (a
 *    password), contradicts nothing and stays. A whole value is compared
 *    with the later changes applied to it, a change by what it added (or
 *    removed); a value the snapshot cut short ("…") only up to the cut.
 *
 *    One exception: a field the page emptied, whose text the page now
 *    shows elsewhere, after a later click of this visit (a tag box and its
 *    Add, a chat box and its Send). The click took the value into the page:
 *    the fill stays, followed by that click, so the steps before "Add" and
 *    after it are two states, and neither is the arrival's.
 *
 * 6. What the page shows open that it did not show on arrival (a dialog, an
 *    expanded section: `page-marks.ts`) follows the actions, as marks. A
 *    click that opens one leaves no value, so without them the steps before
 *    and after "Save note" on one URL are one state, and the taught order is
 *    lost (issue 35 part 4).
 *
 * The empty result is the paper's "No action".
 */
import type { Action } from '../page/action.ts';
import { formatTarget, parseAction } from '../page/action-grammar.ts';
import type { PageObservation } from '../page/observation.ts';
import { isSecretField } from '../secrets/secret-fields.ts';
import { resolveSemanticAction, targetNode } from '../page/semantic-action.ts';
import { unhandledKind } from '../page/action-vocabulary.ts';
import { applyTextChange, type TextChange } from '../page/text-change.ts';
import type { StepRecord } from '../episode/episode.ts';
import { openedSince, pageMarks } from '../page/page-marks.ts';
import { showsValue } from '../page/row-identifier.ts';

/** The episode's executed steps as the effective state reads them. */
export function stateStepsOf(steps: readonly StepRecord[]): EffectiveStateStep[] {
  return steps.filter((s) => s.chosen).map((s) => ({
    regUrl: s.regUrl,
    semantic: s.chosen!.semantic,
    ok: s.result?.ok === true && !(s.result.ok && s.result.navigated),
    marks: s.pageMarks,
  }));
}

export interface EffectiveStateStep {
  /** Regularized URL of the page the action was taken on. */
  regUrl: string;
  /** The action in semantic form. */
  semantic: string;
  ok: boolean;
  /** What the page showed open when the step was proposed (`pageMarks`); absent on steps recorded before marks. */
  marks?: readonly string[] | undefined;
}

/** The snapshot cuts a long value short with a final "…" (content/observe/snapshot-text.ts). */
const CUT = '…';

const STATEFUL_CLICK_ROLES: ReadonlySet<string> = new Set([
  'tab', 'radio', 'checkbox', 'switch', 'option', 'combobox', 'treeitem', 'menuitemcheckbox', 'menuitemradio',
]);

/** Whether a field showing `value` holds `text` (a value the snapshot cut short: up to the cut). */
const shownAs = (text: string | null, value: string): boolean =>
  text === value || (text !== null && value.endsWith(CUT) && text.length >= value.length && text.startsWith(value.slice(0, -1)));

/** A whole text with the later changes made to its field applied in order; null when one no longer applies. */
function withChanges(text: string, later: readonly Action[]): string | null {
  let value: string | null = text;
  for (const a of later) {
    if (value === null || a.type !== 'fill' || a.change === undefined) continue;
    const applied = applyTextChange(value, a.text, a.change);
    value = applied.ok ? applied.value : null;
  }
  return value;
}

/**
 * False when the page shows that the action's effect is no longer there; true otherwise.
 * `later`: the changes made to a filled field after this whole value (its text now includes them).
 */
function notContradicted(action: Action, observation: PageObservation, later: readonly Action[] = []): boolean {
  const resolved = resolveSemanticAction(action, observation);
  if (!resolved.ok) return true;
  const node = targetNode(resolved.action, observation);
  if (!node) return true;
  switch (action.type) {
    case 'fill':
      // A secret's value is masked in what is stored: the page cannot be compared with it.
      if (isSecretField(node, true) || node.value === undefined) return true;
      if (action.change !== undefined) return changeStillShown(action.text, action.change, node.value);
      return shownAs(withChanges(action.text, later), node.value);
    case 'select_option':
      return node.value === undefined || node.value === action.option;
    case 'check':
      return node.states.checked !== false;
    case 'uncheck':
      return node.states.checked !== true;
    case 'click':
      // A radio clicked on shows whether it still holds, a tab or an option its
      // selection; a click on a checkbox toggles, so its state says nothing.
      if (node.role === 'radio' || node.role === 'menuitemradio') return node.states.checked !== false;
      if (node.role === 'tab' || node.role === 'option' || node.role === 'treeitem') return node.states.selected !== false;
      return true;
    case 'dblclick': case 'hover': case 'focus': case 'clear': case 'press': case 'scroll':
    case 'goto': case 'go_back': case 'go_forward': case 'send_msg_to_user': case 'report_infeasible':
      return true;
    default:
      return unhandledKind(action);
  }
}

/** Whether a field's value still shows a change made to it: what it added is there, or what it removed is gone. */
function changeStillShown(text: string, change: TextChange, value: string): boolean {
  if (value.endsWith(CUT)) return true; // cut short: what is missing may be past the cut
  const added = text.replace(/^\n+|\n+$/g, '');
  if (added !== '') return value.includes(added);
  return change.kind !== 'replace' || !value.includes(change.old);
}

/**
 * `marks`: what the current page shows open; by default read from
 * `observation` (a demonstration has no observation, and passes the marks its
 * page reported).
 */
export function computeEffectiveState(
  steps: readonly EffectiveStateStep[],
  currentRegUrl: string,
  observation?: PageObservation,
  marks: readonly string[] | undefined = observation ? pageMarks(observation) : undefined,
): string[] {
  let start = steps.length;
  while (start > 0 && steps[start - 1]?.regUrl === currentRegUrl) start--;
  // The first step of this visit saw the page as it arrived; no step yet: this is the arrival.
  const arrival = start < steps.length ? (steps[start]!.marks ?? null) : (marks ?? null);
  const progress = marks === undefined ? [] : openedSince(arrival, marks);

  // Map keeps insertion order; deleting and re-inserting moves a key to the end.
  const byElement = new Map<string, string>();
  /** The first successful click after a field's whole value: what may have taken it into the page. */
  const clickedAfter = new Map<string, string>();
  /** Changes of a field's text (append, insert, …), by field: each kept, in order, after its whole value. */
  const changes = new Map<string, string[]>();
  for (const step of steps.slice(start)) {
    if (!step.ok) continue;
    const parsed = parseAction(step.semantic);
    if (!parsed.ok) continue;
    const action = parsed.action;
    switch (action.type) {
      case 'fill': {
        const key = formatTarget(action.target);
        if (action.change !== undefined) {
          const whole = byElement.get(key) ?? '';
          changes.set(key, [...(changes.get(key) ?? []), step.semantic]);
          byElement.delete(key);
          byElement.set(key, whole);
          break;
        }
        changes.delete(key);
        clickedAfter.delete(key);
        byElement.delete(key);
        byElement.set(key, step.semantic);
        break;
      }
      case 'select_option':
      case 'check':
      case 'uncheck': {
        const key = formatTarget(action.target);
        byElement.delete(key);
        byElement.set(key, step.semantic);
        break;
      }
      case 'clear':
        byElement.delete(formatTarget(action.target));
        changes.delete(formatTarget(action.target));
        break;
      case 'click': {
        const target = action.target;
        if (target.kind === 'semantic' && STATEFUL_CLICK_ROLES.has(target.role.toLowerCase())) {
          const key = formatTarget(target);
          byElement.delete(key);
          byElement.set(key, step.semantic);
        } else {
          for (const key of byElement.keys()) if (!clickedAfter.has(key)) clickedAfter.set(key, step.semantic);
        }
        break;
      }
      case 'dblclick': case 'hover': case 'focus': case 'press': case 'scroll':
      case 'goto': case 'go_back': case 'go_forward': case 'send_msg_to_user': case 'report_infeasible':
        break;
      default:
        unhandledKind(action);
    }
  }
  // A field's whole value ('' when only changes were made to it), then its changes.
  const entries = [...byElement].flatMap(([key, semantic]) => [
    ...(semantic === '' ? [] : [{ semantic, later: changes.get(key) ?? [], takenBy: changes.has(key) ? undefined : clickedAfter.get(key) }]),
    ...(changes.get(key) ?? []).map((change) => ({ semantic: change, later: [], takenBy: undefined })),
  ]);
  if (!observation) return [...entries.map((e) => e.semantic), ...progress];
  const actionOf = (semantic: string): Action[] => {
    const parsed = parseAction(semantic);
    return parsed.ok ? [parsed.action] : [];
  };
  return [...entries.flatMap(({ semantic, later, takenBy }) => {
    const parsed = parseAction(semantic);
    if (!parsed.ok || notContradicted(parsed.action, observation, later.flatMap(actionOf))) return [semantic];
    return takenBy !== undefined && takenIntoPage(parsed.action, observation) ? [semantic, takenBy] : [];
  }), ...progress];
}

/**
 * Whether a whole value typed into a field is now shown by the page elsewhere
 * while the field is empty: a click took it in (a tag became a chip, a
 * message a line of the conversation). The value must be shown whole words,
 * by another element, and not have been there already on the field's own
 * label (a field named like its value proves nothing).
 */
function takenIntoPage(action: Action, observation: PageObservation): boolean {
  if (action.type !== 'fill' || action.change !== undefined) return false;
  const resolved = resolveSemanticAction(action, observation);
  const field = resolved.ok ? targetNode(resolved.action, observation) : undefined;
  if (!field || field.value !== '' || isSecretField(field, true)) return false;
  if (showsValue(field.name, action.text)) return false;
  return observation.nodes.some((n) => n !== field && showsValue(n.name, action.text));
}
