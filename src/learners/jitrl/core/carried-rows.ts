/**
 * Memory from another instance of the task's template, put in this instance's
 * row (page/row-identifier.ts): a remembered click on the taught ticket's id
 * link becomes the click on this task's ticket's link, or, when this task's
 * row is not one element here, no evidence for any action. Its return still
 * counts in V (Eq. 4): the state is as similar as it was, only the action
 * named another item.
 */
import type { PageObservation } from '../../../core/page/observation.ts';
import { rebindRowIdentifier } from '../../../core/page/row-identifier.ts';
import type { Neighbour } from '../../../core/memory/transition.ts';
import { carriedValues } from './retrieve-neighbours.ts';

export interface CarriedRows {
  neighbours: Neighbour[];
  /** Transition ids whose action named another instance's row: no evidence for an action here (Eq. 5). */
  otherInstance: Set<string>;
  notes: string[];
}

export function carryRows(neighbours: readonly Neighbour[], task: string, observation: Pick<PageObservation, 'nodes'>): CarriedRows {
  const otherInstance = new Set<string>();
  const notes = new Set<string>();
  const out = neighbours.map((n): Neighbour => {
    const values = carriedValues(n.transition, task);
    if (values === null) return n;
    const row = rebindRowIdentifier(n.transition.action, observation, values);
    if (row.kind === 'same') return n;
    if (row.kind === 'other-instance') {
      otherInstance.add(n.transition.id);
      notes.add(`remembered ${n.transition.action} not used: ${row.reason}`);
      return n;
    }
    notes.add(`remembered ${n.transition.action} moved to this task's row: ${row.semantic}`);
    return { ...n, transition: { ...n.transition, action: row.semantic } };
  });
  return { neighbours: out, otherInstance, notes: [...notes] };
}
