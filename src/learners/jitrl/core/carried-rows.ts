/**
 * Memory from another instance of the task's template, put in this instance's
 * row (page/row-identifier.ts): a remembered click on the taught ticket's id
 * link becomes the click on this task's ticket's link, or, when this task's
 * row is not one element here, no evidence for any action. A remembered choice
 * of the other instance's option becomes this instance's option, only if the
 * list has it (page/option-rebinding.ts). Memory of another
 * template's task on such a link counts for nothing when the row is that
 * task's item (`rowBoundToOtherTask`). Its return still
 * counts in V (Eq. 4): the state is as similar as it was, only the action
 * named another item.
 */
import type { PageObservation } from '../../../core/page/observation.ts';
import { rebindOption } from '../../../core/page/option-rebinding.ts';
import { rebindRowIdentifier, rowTextOf } from '../../../core/page/row-identifier.ts';
import { rowBoundToOtherTask } from '../../../core/page/task-binding.ts';
import { tokenize } from '../../../core/page/tokenize.ts';
import type { Neighbour } from './transition.ts';
import { carriedValues, namesOtherInstance } from './retrieve-neighbours.ts';

export interface CarriedRows {
  neighbours: Neighbour[];
  /** Transition ids whose action named another instance's row: no evidence for an action here (Eq. 5). */
  otherInstance: Set<string>;
  notes: string[];
}

export function carryRows(neighbours: readonly Neighbour[], task: string, observation: Pick<PageObservation, 'nodes'>): CarriedRows {
  const otherInstance = new Set<string>();
  const notes = new Set<string>();
  const taskTokens = tokenize(task);
  const out = neighbours.flatMap((n): Neighbour[] => {
    const values = carriedValues(n.transition, task);
    if (values === null) {
      // Another template's step on an id link: its row is that task's item unless this task names it too.
      const row = n.transition.task === task ? undefined : rowTextOf(n.transition.action, observation);
      if (row !== undefined && rowBoundToOtherTask(row, n.transition.taskTokens, taskTokens)) {
        otherInstance.add(n.transition.id);
        notes.add(`remembered ${n.transition.action} not used: its row is another task's item`);
      }
      return [n];
    }
    let action = n.transition.action;
    for (const [rebind, moved] of [[rebindRowIdentifier, 'moved to this task\'s row'], [rebindOption, 'set to this task\'s option']] as const) {
      const out = rebind(action, observation, values);
      // A step naming the other instance's item by its task's word counts only once moved to this task's row: else it is not memory here.
      if (rebind === rebindRowIdentifier && out.kind !== 'moved' && namesOtherInstance(n.transition)) return [];
      if (out.kind === 'other-instance') {
        otherInstance.add(n.transition.id);
        notes.add(`remembered ${n.transition.action} not used: ${out.reason}`);
        return [n];
      }
      if (out.kind === 'moved') {
        notes.add(`remembered ${action} ${moved}: ${out.semantic}`);
        action = out.semantic;
      }
    }
    return action === n.transition.action ? [n] : [{ ...n, transition: { ...n.transition, action } }];
  });
  return { neighbours: out, otherInstance, notes: [...notes] };
}
