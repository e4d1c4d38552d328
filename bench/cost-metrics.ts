/**
 * What an attempt cost (issue 25): model calls and policy calls per success,
 * by attempt, and how many steps were replayed from a learned procedure
 * instead of proposed by the policy, with the replay's fallbacks. A "policy
 * call" is one proposal the policy made (whatever its kind: offline,
 * simulated or a model); a "model call" is one request to a model endpoint.
 */
import type { Episode } from '../src/core/episode/episode.ts';
import type { AttemptRecord } from './metrics.ts';

/** The cost fields of one attempt, from its closed episode. */
export function attemptCost(episode: Episode): Pick<AttemptRecord, 'policyCalls' | 'replayedSteps' | 'replayFallback'> {
  const proposed = episode.steps.filter((s) => s.chosen?.decision !== 'demonstrated');
  const replayed = proposed.filter((s) => s.replayStep !== undefined);
  const fallback = episode.replay?.fallback;
  return {
    policyCalls: proposed.length - replayed.length,
    replayedSteps: replayed.filter((s) => s.chosen !== null).length,
    replayFallback: fallback ? `step ${fallback.step + 1}: ${fallback.reason}` : null,
  };
}

export interface AttemptCost {
  attempt: number;
  attempts: number;
  successes: number;
  /** null when no attempt succeeded (a cost per success does not exist then). */
  modelCallsPerSuccess: number | null;
  policyCallsPerSuccess: number | null;
  replayedStepsPerAttempt: number;
  fallbacks: number;
}

/** One learner configuration's cost by attempt (index k − 1). */
export function costByAttempt(records: readonly AttemptRecord[], learner: string, attempts: number): AttemptCost[] {
  const out: AttemptCost[] = [];
  for (let k = 1; k <= attempts; k++) {
    const at = records.filter((r) => r.learner === learner && r.attempt === k);
    const successes = at.filter((r) => r.outcome === 'success').length;
    const sum = (f: (r: AttemptRecord) => number) => at.reduce((n, r) => n + f(r), 0);
    out.push({
      attempt: k,
      attempts: at.length,
      successes,
      modelCallsPerSuccess: successes === 0 ? null : sum((r) => r.modelCalls) / successes,
      policyCallsPerSuccess: successes === 0 ? null : sum((r) => r.policyCalls ?? 0) / successes,
      replayedStepsPerAttempt: at.length === 0 ? 0 : sum((r) => r.replayedSteps ?? 0) / at.length,
      fallbacks: at.filter((r) => r.replayFallback).length,
    });
  }
  return out;
}

const fmt = (x: number | null): string => (x === null ? '–' : x.toFixed(2));

/** The markdown rows of the cost table: one per configuration and attempt. */
export function costTable(records: readonly AttemptRecord[], learners: readonly string[], attempts: number): string[][] {
  const rows: string[][] = [['config', 'attempt', 'success', 'model calls / success', 'policy calls / success', 'replayed steps / attempt', 'replay fallbacks']];
  for (const learner of learners) {
    for (const c of costByAttempt(records, learner, attempts)) {
      if (c.attempts === 0) continue;
      rows.push([learner, String(c.attempt), `${c.successes}/${c.attempts}`, fmt(c.modelCallsPerSuccess), fmt(c.policyCallsPerSuccess), c.replayedStepsPerAttempt.toFixed(2), String(c.fallbacks)]);
    }
  }
  return rows;
}

/** Every replay fallback of the run, with where and why (the changed-site check reads these). */
export function fallbackLines(records: readonly AttemptRecord[]): string[] {
  return records.filter((r) => r.replayFallback).map((r) => `- ${r.learner} / ${r.taskId} / attempt ${r.attempt} (${r.outcome}): ${r.replayFallback}`);
}
