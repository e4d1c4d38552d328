/**
 * How many pages the episode can go back without leaving its own first page.
 * Counted from what the steps did: a step that navigated (a click on a link,
 * a goto, a go_forward, an SPA route change) adds a history entry; a
 * successful go_back removes one; following a new tab starts a fresh history
 * (the new tab has no page of the task behind it). `go_back` is refused at 0,
 * so the agent never walks off the task (to about:blank, or the page the
 * person was on before).
 */
import type { ActionResult } from './action.ts';
import { parseAction } from './action-grammar.ts';

export interface HistoryStep {
  chosen: { action: string } | null;
  result: ActionResult | null;
}

export function historyDepth(steps: readonly HistoryStep[]): number {
  let depth = 0;
  for (const step of steps) {
    const result = step.result;
    if (step.chosen === null || result === null || !result.ok) continue;
    if (result.openedTab !== undefined) {
      depth = 0;
      continue;
    }
    if (!result.navigated) continue;
    const parsed = parseAction(step.chosen.action);
    depth = parsed.ok && parsed.action.type === 'go_back' ? Math.max(0, depth - 1) : depth + 1;
  }
  return depth;
}
