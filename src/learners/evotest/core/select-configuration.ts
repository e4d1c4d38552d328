/**
 * Which configuration of a lineage runs next: the pinned one, else an
 * exploitation rule's (exploit.ts), else UCB over the selection pool (ucb.ts).
 * Apart from lineage.ts, which both this and exploit.ts read (no import cycle).
 */
import { meanScore, nodeById, selectionPool, totalRuns, type Lineage, type LineageNode } from './lineage.ts';
import { selectByUcb, type UcbChoice, type UcbEntry } from './ucb.ts';
import { exploitOverride, type ExploitRule } from './exploit.ts';

/** A node's μ̂ prior: the nearest ancestor's mean (a mutation starts as good as what it mutates). */
function priorOf(lineage: Lineage, node: LineageNode): number | null {
  let parent = node.parentId ? nodeById(lineage, node.parentId) : undefined;
  const seen = new Set<string>();
  while (parent && !seen.has(parent.id)) {
    const m = meanScore(parent);
    if (m !== null) return m;
    seen.add(parent.id);
    parent = parent.parentId ? nodeById(lineage, parent.parentId) : undefined;
  }
  return null;
}

export interface Selection {
  node: LineageNode;
  /** The UCB table over the pool (shown even when an exploitation rule chose); null when pinned. */
  ucb: UcbChoice | null;
  /** What chose the node: the person's pin, UCB, or an exploitation rule (`exploit.ts`). */
  chosenBy: 'pinned' | 'ucb' | ExploitRule;
}

/** The configuration for the next episode: the pinned one, else an exploitation rule's (`exploit.ts`), else UCB over the pool. */
export function selectConfiguration(lineage: Lineage, exploration: number): Selection {
  const pinned = lineage.pinnedId ? nodeById(lineage, lineage.pinnedId) : undefined;
  if (pinned) return { node: pinned, ucb: null, chosenBy: 'pinned' };
  const pool = selectionPool(lineage);
  const entries: UcbEntry[] = pool.map((n) => ({ id: n.id, scores: n.runs.map((r) => r.score), prior: priorOf(lineage, n) }));
  const choice = selectByUcb(entries, { exploration, totalEpisodes: totalRuns(lineage) });
  const exploit = exploitOverride(lineage);
  if (exploit) return { node: exploit.node, ucb: choice, chosenBy: exploit.rule };
  return { node: pool.find((n) => n.id === choice.id)!, ucb: choice, chosenBy: 'ucb' };
}
