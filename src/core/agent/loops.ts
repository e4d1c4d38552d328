/**
 * Loops within an episode: coming back to a page state already seen
 * (A → B → A, or A → A when a step changed nothing) is no progress. The
 * actions taken at that state before led back here, so taking them again
 * would go round the loop once more: the agent loop bars them for the rest of
 * this state's visit and shows the person the loop.
 */

export interface VisitedStep {
  /** `pageKeyOf` the page when the step was proposed; null when unknown. */
  pageKey: string | null;
  /** The executed action, in semantic form. */
  action: string;
}

export interface LoopFinding {
  /** Index (into the visited steps) of the latest earlier visit of this state. */
  since: number;
  /** Steps taken since then that brought the page back. */
  length: number;
  /** Every action taken at this state before, in order, without repeats. */
  repeated: string[];
}

export function detectLoop(visited: readonly VisitedStep[], currentKey: string | null): LoopFinding | null {
  if (currentKey === null) return null;
  const earlier = visited.map((v, i) => ({ v, i })).filter(({ v }) => v.pageKey === currentKey);
  if (earlier.length === 0) return null;
  const since = earlier.at(-1)!.i;
  return { since, length: visited.length - since, repeated: [...new Set(earlier.map(({ v }) => v.action))] };
}
