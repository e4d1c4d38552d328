/**
 * Actions whose last run has an unknown outcome (a timeout, a worker stopped
 * mid-action): they may have taken effect. Such an action asks in every task,
 * not only the one it ran in (issue 30), until the person decides on it again
 * — approves, teaches, rejects or corrects it — after that run.
 */
import type { Episode } from '../episode/episode.ts';
import { actionKey, type PersonDecision } from './approval-history.ts';

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

const UNKNOWN: ReadonlySet<string> = new Set(['outcome_unknown', 'timeout']);

/**
 * Whether a run of `key` on `origin` ended with an unknown outcome that no
 * decision of the person's (`history`, from personDecisionsOf) came after.
 * Imported episodes are someone else's runs and do not count.
 */
export function unsettledUnknownOutcome(episodes: readonly Episode[], history: readonly PersonDecision[], origin: string, key: string): boolean {
  let last = -Infinity;
  for (const episode of episodes) {
    if (episode.kind === 'imported') continue;
    for (const s of episode.steps) {
      if (s.result?.ok !== false || !UNKNOWN.has(s.result.code) || !s.chosen || originOf(s.url) !== origin) continue;
      // The order personDecisionsOf uses: the step's start time, then its index.
      if (actionKey(s.chosen.semantic) === key) last = Math.max(last, s.startedAt + s.index / 1000);
    }
  }
  if (last === -Infinity) return false;
  return !history.some((d) => d.origin === origin && d.action === key && d.at > last);
}
