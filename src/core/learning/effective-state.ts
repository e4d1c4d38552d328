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
 * The empty result is the paper's "No action".
 */
import { formatTarget, parseAction } from '../page/action-grammar.ts';

export interface EffectiveStateStep {
  /** Regularized URL of the page the action was taken on. */
  regUrl: string;
  /** The action in semantic form. */
  semantic: string;
  ok: boolean;
}

const STATEFUL_CLICK_ROLES: ReadonlySet<string> = new Set([
  'tab', 'radio', 'checkbox', 'switch', 'option', 'combobox', 'treeitem', 'menuitemcheckbox', 'menuitemradio',
]);

export function computeEffectiveState(steps: readonly EffectiveStateStep[], currentRegUrl: string): string[] {
  let start = steps.length;
  while (start > 0 && steps[start - 1]?.regUrl === currentRegUrl) start--;

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
      default:
        break;
    }
  }
  return [...byElement.values()];
}
