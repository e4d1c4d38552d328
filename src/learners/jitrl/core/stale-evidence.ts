/**
 * Which remembered actions that no longer resolve count as evidence that the
 * site changed (issue 23: stale marking must not forget valid memory). Not
 * finding an element proves nothing on another instance of the page type
 * (product 203 has no "Red mug" link) or when the element is not on the page
 * yet. Only the same instance (same URL), in the same state (similarity 1:
 * same page type, effective state and task), showing another control of the
 * same role where the remembered one was expected, demotes. Without element
 * positions in memory, "in its place" is read as "a control of that role is
 * there but none of that name".
 */
import type { Neighbour } from './transition.ts';
import { parseAction } from '../../../core/page/action-grammar.ts';
import type { PageObservation } from '../../../core/page/observation.ts';
import { samePage } from '../../../core/page/same-page.ts';
import { STALE_DEMOTION } from './retrieve-neighbours.ts';

const SAME_STATE = 1 - 1e-9;

/** The ids, among `droppedIds`, of transitions whose miss shows the site changed. */
export function staleEvidence(input: {
  neighbours: readonly Neighbour[];
  droppedIds: readonly string[];
  url: string;
  observation: Pick<PageObservation, 'nodes'>;
}): string[] {
  const dropped = new Set(input.droppedIds);
  // Only stale-marking needs the page: a context without nodes marks nothing.
  const roles = new Set((input.observation.nodes ?? []).filter((n) => n.ref !== null).map((n) => n.role));
  return input.neighbours
    .filter((n) => dropped.has(n.transition.id))
    // Similarity before earlier demotions: a row already marked keeps counting misses.
    .filter((n) => n.similarity / STALE_DEMOTION ** (n.transition.stale ?? 0) >= SAME_STATE && n.transition.url !== undefined && samePage(n.transition.url, input.url))
    .filter((n) => {
      const parsed = parseAction(n.transition.action);
      if (!parsed.ok || !('target' in parsed.action) || parsed.action.target?.kind !== 'semantic') return false;
      return roles.has(parsed.action.target.role);
    })
    .map((n) => n.transition.id);
}
