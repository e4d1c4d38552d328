/**
 * The snapshot node an action acts on: by its ref, or by role and name for a
 * semantic target (the first node with a ref that has them). A press without
 * a target goes to the focused element (the page layer sends it there), so
 * that is the node it acts on: the page chooses it, and the gate, the
 * always-ask rules and the approval's fingerprint must see it.
 * Undefined when the action acts on no element or the page does not show it.
 */
import type { Action } from './action.ts';
import type { PageObservation, SnapshotNode } from './observation.ts';

export function nodeActedOn(action: Action, observation: Pick<PageObservation, 'nodes' | 'focusedRef'>): SnapshotNode | undefined {
  if (action.type === 'press' && !action.target) return focusedNode(observation);
  if (!('target' in action) || !action.target) return undefined;
  const t = action.target;
  if (t.kind === 'ref') return observation.nodes.find((n) => n.ref === t.ref);
  return observation.nodes.find((n) => n.ref !== null && n.role === t.role && n.name === t.name);
}

/** The snapshot node that has focus (where a key pressed without a target goes); undefined when none does. */
export function focusedNode(observation: Pick<PageObservation, 'nodes' | 'focusedRef'>): SnapshotNode | undefined {
  const focused = observation.focusedRef;
  return focused === null ? undefined : observation.nodes.find((n) => n.ref === focused);
}
