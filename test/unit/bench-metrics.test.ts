import { describe, expect, it } from 'vitest';
import {
  checkTargets, laterInstances, runningAuc, runningRate, summarizeLearner, weightedAuc, type AttemptRecord, type AttemptOutcome,
} from '../../bench/metrics.ts';

function rec(learner: string, taskId: string, attempt: number, outcome: AttemptOutcome, extra: Partial<AttemptRecord> = {}): AttemptRecord {
  return {
    learner, taskId, template: 'tpl', attempt, outcome,
    reward: outcome === 'error' ? null : outcome === 'success' ? 1 : 0,
    steps: 4, modelCalls: 0, promptTokens: 0, completionTokens: 0, decisionLatenciesMs: [], durationMs: 10,
    error: outcome === 'error' ? 'boom' : null, instruction: 'do it', answer: null, actions: [], ...extra,
  };
}

/** Task A: 0,1,1; task B: 0,0(error),1. */
function sample(): AttemptRecord[] {
  return [
    rec('jitrl', 'A', 1, 'failure', { steps: 6, modelCalls: 3, promptTokens: 100, completionTokens: 10, decisionLatenciesMs: [5, 1] }),
    rec('jitrl', 'A', 2, 'success', { steps: 2, decisionLatenciesMs: [3] }),
    rec('jitrl', 'A', 3, 'success', { steps: 2, decisionLatenciesMs: [2] }),
    rec('jitrl', 'B', 1, 'failure', { steps: 8, template: 'other' }),
    rec('jitrl', 'B', 2, 'error', { steps: 4, template: 'other' }),
    rec('jitrl', 'B', 3, 'success', { steps: 2, template: 'other' }),
    rec('static', 'A', 1, 'failure'),
  ];
}

describe('per-task curves', () => {
  it('running success rate and its AUC', () => {
    expect(runningRate([0, 1, 1])).toEqual([0, 0.5, 2 / 3]);
    expect(runningAuc([0, 1, 1])).toBeCloseTo(7 / 18, 12);
    expect(runningAuc([1, 1, 1])).toBe(1);
    expect(runningAuc([])).toBe(0);
  });
  it('W-AUC weights attempt k by k (Meta-TTL Eq. 1)', () => {
    expect(weightedAuc([0, 1, 1])).toBeCloseTo(5 / 6, 12);
    expect(weightedAuc([1, 0, 0])).toBeCloseTo(1 / 6, 12);
    expect(weightedAuc([0, 0, 1])).toBe(0.5);
  });
});

describe('summarizeLearner', () => {
  const s = summarizeLearner('jitrl', sample(), 3);
  it('Avg, Final, AUC, W-AUC over tasks', () => {
    expect(s.tasks).toBe(2);
    expect(s.avg).toBeCloseTo(0.5, 12);
    expect(s.final).toBe(1);
    expect(s.finalSuccesses).toBe(2);
    expect(s.successByAttempt).toEqual([0, 0.5, 1]);
    expect(s.auc).toBeCloseTo(0.25, 12); // (7/18 + 2/18) / 2
    expect(s.wauc).toBeCloseTo(2 / 3, 12); // (5/6 + 1/2) / 2
  });
  it('counts errors apart from failures, and sums cost', () => {
    expect(s.errors).toBe(1);
    expect(s.missing).toBe(0);
    expect(s.meanSteps).toBe(4); // (6+2+2+8+4+2)/6
    expect(s.modelCalls).toBe(3);
    expect(s.promptTokens).toBe(100);
    expect(s.completionTokens).toBe(10);
    expect(s.latencyP50Ms).toBe(2.5); // sorted [1, 2, 3, 5]
    expect(s.latencyP95Ms).toBeCloseTo(4.7, 9); // linear interpolation between 3 and 5
  });
  it('groups by template', () => {
    expect(Object.keys(s.byTemplate)).toEqual(['other', 'tpl']);
    expect(s.byTemplate['tpl']!.successByAttempt).toEqual([0, 1, 1]);
    expect(s.byTemplate['other']!.avg).toBeCloseTo(1 / 3, 12);
  });
  it('pads missing attempts as failures instead of shrinking K', () => {
    const padded = summarizeLearner('jitrl', sample(), 4);
    expect(padded.missing).toBe(2);
    expect(padded.final).toBe(0);
    expect(padded.avg).toBeCloseTo(0.375, 12); // (2/4 + 1/4) / 2
    expect(padded.wauc).toBeCloseTo((5 / 10 + 3 / 10) / 2, 12);
  });
  it('returns zeros and null latencies for a learner without records', () => {
    const empty = summarizeLearner('cer', sample(), 3);
    expect(empty).toMatchObject({ tasks: 0, avg: 0, final: 0, auc: 0, wauc: 0, latencyP50Ms: null, latencyP95Ms: null, errors: 0 });
  });
});

describe('checkTargets (issue 10)', () => {
  const t = { tasks: 4, attempts: 5, avg: 0.5, final: 0.5, auc: 0.5, wauc: 0.5, successByAttempt: [], finalSuccesses: 3, limit: 0.75, finalOfLimit: 2 / 3 };
  const base = { ...summarizeLearner('static', [], 5), final: 0.5, avg: 0.5, limit: 0.75, byTemplate: { t },
    laterInstances: { tasks: 10, successes: 3, rate: 0.3 } };
  it('simulated: 90% of the limit and +20 points; offline: +15 points; carry: later instances +10', () => {
    const good = { ...base, learner: 'jitrl', final: 0.75, limit: 0.8, byTemplate: { t: { ...t, finalSuccesses: 2 } }, laterInstances: { tasks: 10, successes: 4, rate: 0.4 } };
    expect(checkTargets(good, base, { policy: 'simulated', memory: 'fresh' }).map((c) => [c.name, c.met])).toEqual([
      ['Final ≥ 90% of its perfect-learner limit', true], ['Final ≥ static Final + 20 points', true], ['No template more than one task below static', true],
    ]);
    expect(checkTargets(good, base, { policy: 'offline', memory: 'fresh' }).map((c) => c.met)).toEqual([true, true]);
    expect(checkTargets(good, base, { policy: 'offline', memory: 'carry' })[0]).toEqual({ name: 'Later instances ≥ static + 10 points', met: true, detail: '40.0 (4/10) vs 30.0 + 10' });
  });
  it('reports each missed target with its numbers', () => {
    const bad = { ...base, learner: 'cer', final: 0.6, limit: 0.8, byTemplate: { t: { ...t, finalSuccesses: 1 } } };
    const checks = checkTargets(bad, base, { policy: 'simulated', memory: 'fresh' });
    expect(checks.map((c) => c.met)).toEqual([false, false, false]);
    expect(checks[0]!.detail).toBe('60.0 vs 0.9 × 80.0 = 72.0');
    expect(checks[2]!.detail).toBe('worst: t (2 tasks below static)');
  });
});

describe('perfect-learner limit and later instances', () => {
  it('limit = tasks solved at least once before the last attempt; Final as a fraction of it', () => {
    // A: 0,1,1 → in limit, final 1; B: 0,0,1 → not in limit (first success at K), final 1
    const s = summarizeLearner('jitrl', sample(), 3);
    expect(s.limit).toBe(0.5);
    expect(s.final).toBe(1);
    expect(s.finalOfLimit).toBe(2);
    const lost = summarizeLearner('x', [rec('x', 'A', 1, 'success'), rec('x', 'A', 2, 'failure'), rec('x', 'B', 1, 'failure'), rec('x', 'B', 2, 'failure')], 2);
    expect([lost.limit, lost.final, lost.finalOfLimit]).toEqual([0.5, 0, 0]);
    expect(summarizeLearner('x', [rec('x', 'A', 1, 'failure')], 1).finalOfLimit).toBeNull();
  });
  it('later instances: attempt-1 success on every instance after the first of its template, in run order', () => {
    const records = [
      rec('x', 'a1', 1, 'failure', { template: 'a' }), rec('x', 'a2', 1, 'success', { template: 'a' }), rec('x', 'a3', 1, 'failure', { template: 'a' }),
      rec('x', 'solo', 1, 'success', { template: 'solo' }), rec('x', 'b1', 1, 'success', { template: 'b' }), rec('x', 'b2', 1, 'success', { template: 'b' }),
    ];
    expect(laterInstances(records)).toEqual({ tasks: 3, successes: 2, rate: 2 / 3 });
  });
});
