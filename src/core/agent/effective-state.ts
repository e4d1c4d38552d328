/**
 * The effective state (JitRL App. F, "local action history"): the earlier
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
 *
 * 5. When the current page is given, an entry the page contradicts is
 *    dropped: the field no longer holds the typed text, the dropdown shows
 *    another option, the box is in the other state. This is the paper's
 *    "plausibly still visible" read from the snapshot instead of a
 *    screenshot: a setting a "Discard changes" button reverted is gone, so
 *    what happens next is not filed under a state the page is not in.
 *    An element the page no longer shows, or whose value it hides (a
 *    password), contradicts nothing and stays.
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
import type { StepRecord } from '../episode/episode.ts';
import { isSecretField } from '../secrets/secret-fields.ts';
import { resolveSemanticAction, targetNode } from '../page/semantic-action.ts';
import { unhandledKind } from '../page/action-vocabulary.ts';
import { openedSince, pageMarks } from '../page/page-marks.ts';

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

const STATEFUL_CLICK_ROLES: ReadonlySet<string> = new Set([
  'tab', 'radio', 'checkbox', 'switch', 'option', 'combobox', 'treeitem', 'menuitemcheckbox', 'menuitemradio',
]);

/** False when the page shows that the action's effect is no longer there; true otherwise. */
function notContradicted(action: Action, observation: PageObservation): boolean {
  const resolved = resolveSemanticAction(action, observation);
  if (!resolved.ok) return true;
  const node = targetNode(resolved.action, observation);
  if (!node) return true;
  switch (action.type) {
    case 'fill':
      // A secret's value is masked in what is stored: the page cannot be compared with it.
      return isSecretField(node, true) || node.value === undefined || node.value === action.text;
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
  for (const step of steps.slice(start)) {
    if (!step.ok) continue;
    const parsed = parseAction(step.semantic);
    if (!parsed.ok) continue;
    const action = parsed.action;
    switch (action.type) {
      case 'fill':
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
        break;
      case 'click': {
        const target = action.target;
        if (target.kind === 'semantic' && STATEFUL_CLICK_ROLES.has(target.role.toLowerCase())) {
          const key = formatTarget(target);
          byElement.delete(key);
          byElement.set(key, step.semantic);
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
  const entries = [...byElement.values()];
  if (!observation) return [...entries, ...progress];
  return [...entries.filter((semantic) => {
    const parsed = parseAction(semantic);
    return !parsed.ok || notContradicted(parsed.action, observation);
  }), ...progress];
}
