/**
 * How many pages the episode can go back without leaving its own first page.
 * Counted from what the steps did: a step that navigated (a click on a link,
 * a goto, a go_forward, an SPA route change) adds a history entry; a
 * successful go_back removes one; following a new tab starts a fresh history
 * (the new tab has no page of the task behind it). A navigation that lands
 * on the very URL it started from adds nothing: browsers replace the current
 * entry then (HTML's navigate algorithm turns a same-URL navigation into
 * "replace"), so a click on a link to the page itself (a logo on the home
 * page) cannot be gone back from. `go_back` is refused at 0, so the agent
 * never walks off the task (to about:blank, or the page the person was on
 * before).
 */
import type { ActionResult } from './action.ts';
import { parseAction } from './action-grammar.ts';

export interface HistoryStep {
  chosen: { action: string } | null;
  result: ActionResult | null;
  /** The page the step was taken on; with the next step's, tells a same-URL navigation. */
  url?: string;
}

/**
 * `currentUrl`: the page now, i.e. where the last step landed. Without it (or
 * a step's url) a navigation is assumed to have added an entry.
 */
export function historyDepth(steps: readonly HistoryStep[], currentUrl?: string): number {
  let depth = 0;
  steps.forEach((step, i) => {
    const result = step.result;
    if (step.chosen === null || result === null || !result.ok) return;
    if (result.openedTab !== undefined) {
      depth = 0;
      return;
    }
    if (!result.navigated) return;
    const parsed = parseAction(step.chosen.action);
    if (parsed.ok && parsed.action.type === 'go_back') {
      depth = Math.max(0, depth - 1);
      return;
    }
    const landed = steps.slice(i + 1).find((s) => s.url !== undefined)?.url ?? currentUrl;
    if (step.url !== undefined && landed !== undefined && landed === step.url) return;
    depth += 1;
  });
  return depth;
}
