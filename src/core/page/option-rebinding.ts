/**
 * Which option a choice carried from another instance of a task's template
 * means here. "File a new feature request ticket" taught
 * `select_option(<combobox "Type">, "Feature_Request")`; for "File a new code
 * defect ticket" the choice is the option whose whole text is "code defect"
 * (option-text.ts: "Code_Defect"), when the list has exactly one. The plain
 * word rewrite (memory/task-instances.ts) cannot see "feature request" in
 * "Feature_Request", and may write an option the list lacks; this looks at the
 * list. An option that is neither instance's value is the form's own choice,
 * the same for every instance, and stays.
 */
import { formatAction, formatTarget, parseAction } from './action-grammar.ts';
import type { PageObservation } from './observation.ts';
import { optionNamed, sameOptionText } from './option-text.ts';
import type { RowRebinding } from './row-identifier.ts';
import { matchingNodes } from './semantic-action.ts';

/**
 * `values`: the other instance's value (lower case) → this instance's, as
 * `memory/task-instances.ts` aligns them. 'same' also when the list is not one
 * element here: resolving the step decides then.
 */
export function rebindOption(semantic: string, observation: Pick<PageObservation, 'nodes'>, values: ReadonlyMap<string, string>): RowRebinding {
  const parsed = parseAction(semantic);
  if (!parsed.ok || parsed.action.type !== 'select_option' || parsed.action.target.kind !== 'semantic') return { kind: 'same' };
  const action = parsed.action;
  const pair = [...values].find(([from, to]) => sameOptionText(action.option, from) || sameOptionText(action.option, to));
  if (pair === undefined) return { kind: 'same' };
  const lists = matchingNodes(parsed.action.target, observation);
  const options = lists.length === 1 ? lists[0]!.options : undefined;
  if (options === undefined) return { kind: 'same' };
  const named = optionNamed(options, pair[1]);
  if (named === null) return { kind: 'other-instance', reason: `${formatTarget(parsed.action.target)} has no option "${pair[1]}"` };
  return named === action.option ? { kind: 'same' } : { kind: 'moved', semantic: formatAction({ ...action, option: named }) };
}
