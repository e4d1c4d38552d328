/**
 * Whether an action remembered for one task is about that task's own
 * particulars. Experience transfers between tasks through similarity (
 * Eq. 24 weighs the task at 0.3), but an action whose arguments repeat words
 * of its own task (the product, person or post it named, "Upvote" for an
 * upvoting task, "Add to cart" for a cart task) says what that task wanted,
 * not what another one wants. When the other task lacks those words, the
 * experience is not evidence for it: "Change the group of Priya Natarajan"
 * says nothing about clicking "Priya Natarajan" for Hannah Becker, and
 * "Upvote the post X" nothing about upvoting X when the task is to downvote it.
 * Words both tasks share ("Add to cart" for two add-to-cart tasks) keep the
 * action transferable. The rule: the action's argument words that only its own
 * task has must outnumber those the current task has, so a reworded task
 * ("add the red shirt" → "put a red shirt") keeps "Add red shirt" (one old
 * word, two current ones). Uses no site's vocabulary: only the two tasks'
 * words and the action's own arguments.
 */
import { tokenize } from './tokenize.ts';
import { formatAction } from './action-grammar.ts';
import { FINISH_ACTION } from './action.ts';

const QUOTED = /"((?:[^"\\]|\\.)*)"/g;
const ANSWER = /^(?:send_msg_to_user|report_infeasible)\(/;
/** "The task is done" says nothing of a task: it is evidence for every instance. */
const FINISHED = formatAction(FINISH_ACTION);
/** A target's container as the grammar writes it: ` in row "Alan Turing"`. */
const CONTEXT_NAME = / in [A-Za-z][A-Za-z0-9_-]* "((?:[^"\\]|\\.)*)"/g;

/** Tokens of an action's quoted arguments (element names, typed text, chosen options). */
export function actionArgumentTokens(semantic: string): string[] {
  const parts: string[] = [];
  for (const m of semantic.matchAll(QUOTED)) parts.push(m[1]!);
  return tokenize(parts.join(' '));
}

/**
 * True when the action, taken for a task with `sourceTaskTokens`, names more
 * words that only that task has than words of the current task
 * (`currentTaskTokens`).
 */
export function boundToOtherTask(semantic: string, sourceTaskTokens: readonly string[], currentTaskTokens: readonly string[]): boolean {
  const current = new Set(currentTaskTokens);
  const own = new Set(sourceTaskTokens.filter((t) => !current.has(t)));
  if (own.size === 0) return false;
  // An answer is what its own task's page showed ("$22.00" for the kettle's
  // price): never evidence for another task, whatever words it repeats.
  // Only the bare "done" is nobody's particular.
  if (ANSWER.test(semantic)) return semantic !== FINISHED;
  // The row or card an action acted in is its item: naming the other task's item binds it outright.
  for (const m of semantic.matchAll(CONTEXT_NAME)) if (tokenize(m[1]!).some((t) => own.has(t))) return true;
  const args = actionArgumentTokens(semantic);
  const ownCount = args.filter((t) => own.has(t)).length;
  const currentCount = args.filter((t) => current.has(t)).length;
  return ownCount > currentCount;
}

/**
 * True when a row a remembered step opened (page/row-identifier.ts: an id
 * link's whole row) shows words only the step's own task has: that task's
 * item ("Toolbar icons are blurry"), not this task's, as for a row context.
 */
export function rowBoundToOtherTask(rowText: string, sourceTaskTokens: readonly string[], currentTaskTokens: readonly string[]): boolean {
  const current = new Set(currentTaskTokens);
  const own = new Set(sourceTaskTokens.filter((t) => !current.has(t)));
  return tokenize(rowText).some((t) => own.has(t));
}
