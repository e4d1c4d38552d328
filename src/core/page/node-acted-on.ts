/**
 * The snapshot node an action acts on: by its ref, or by role and name for a
 * semantic target (the first node with a ref that has them). Undefined when
 * the action has no target or the page does not show it.
 */
import type { Action } from './action.ts';
import type { PageObservation, SnapshotNode } from './observation.ts';

export function nodeActedOn(action: Action, observation: Pick<PageObservation, 'nodes'>): SnapshotNode | undefined {
  if (!('target' in action) || !action.target) return undefined;
  const t = action.target;
  if (t.kind === 'ref') return observation.nodes.find((n) => n.ref === t.ref);
  return observation.nodes.find((n) => n.ref !== null && n.role === t.role && n.name === t.name);
}
