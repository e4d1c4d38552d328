/**
 * The last resort for telling look-alikes apart: where several controls share
 * role, name and context (three unnamed fields in one box, two "Sign in"
 * links), each gets its 1-based place among them, in document order. A
 * control alone of its kind gets none. Pure: the page layer calls it once
 * per snapshot, after the walk.
 */
import type { SnapshotNode } from './observation.ts';

const keyOf = (n: SnapshotNode): string =>
  JSON.stringify([
    n.role.toLowerCase(),
    n.name.replace(/\s+/g, ' ').trim().toLowerCase(),
    (n.context ?? []).map((c) => [c.role.toLowerCase(), c.name.replace(/\s+/g, ' ').trim().toLowerCase()]),
  ]);

/** Sets `nth` on every interactive node that has identical twins; clears it on the others. */
export function assignOrdinals(nodes: SnapshotNode[]): void {
  const groups = new Map<string, SnapshotNode[]>();
  for (const n of nodes) {
    if (n.ref === null) continue;
    delete n.nth;
    const key = keyOf(n);
    const group = groups.get(key);
    if (group) group.push(n);
    else groups.set(key, [n]);
  }
  for (const group of groups.values()) {
    if (group.length > 1) group.forEach((n, i) => (n.nth = i + 1));
  }
}
