/**
 * How closely a snapshot line is tied to what the task names. A task names
 * its item by a value ("Approve the comment by Omar Haddad"); on a long list
 * the controls of that item's row are what the step needs, wherever the row
 * is. The snapshot budget drops such lines last (render-observation.ts).
 * General: the task's words against the line's own name and its containers'
 * names, as whole words; nothing about any one site.
 */
import type { SnapshotNode } from './observation.ts';
import { showsValue } from './row-identifier.ts';

/** How a line is tied to the task: none, by its own name, or by the row, item or group it sits in. */
export type TaskTie = 0 | 1 | 2;

/** Names this short ("OK", "No", "x") say nothing about which item: never a tie. */
const MIN_NAME = 2;

const named = (task: string, name: string): boolean => {
  const n = name.replace(/\s+/g, ' ').trim();
  return n.length >= MIN_NAME && showsValue(task, n);
};

/**
 * 2 when the task shows the name of a container the line sits in (its row,
 * item, group or dialog: every control of that row is the task's item's);
 * 1 when it shows the line's own name; else 0.
 */
export function taskTie(node: SnapshotNode, task: string): TaskTie {
  if (task.trim() === '') return 0;
  if ((node.context ?? []).some((c) => named(task, c.name))) return 2;
  return named(task, node.name) ? 1 : 0;
}
