/**
 * An approved fill that typed a whole text over a multi-line one (a model's
 * or a person's edited action, which can only say the whole text) is
 * remembered as the change it made there: the page reports it with the
 * result (`edit`), and the step's semantic form becomes that change, so the
 * learners, the approvals and replay keep the added line, never the old text.
 */
import { formatAction, parseAction } from '../page/action-grammar.ts';
import type { ActionResult } from '../page/action.ts';

export function semanticAsChange(semantic: string, result: ActionResult): string {
  if (!result.ok || result.edit === undefined) return semantic;
  const parsed = parseAction(semantic);
  if (!parsed.ok || parsed.action.type !== 'fill' || parsed.action.change !== undefined) return semantic;
  return formatAction({ ...parsed.action, text: result.edit.text, change: result.edit.change });
}
