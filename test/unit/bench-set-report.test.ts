import { describe, expect, it } from 'vitest';
import type { AttemptOutcome, AttemptRecord } from '../../bench/metrics.ts';
import type { BenchResult } from '../../bench/report.ts';
import { setReport } from '../../bench/set-report.ts';

function rec(taskId: string, attempt: number, outcome: AttemptOutcome, taught: boolean): AttemptRecord {
  return {
    learner: 'static', taskId, template: taskId.split('.')[0]!, attempt, outcome,
    reward: outcome === 'error' ? null : outcome === 'success' ? 1 : 0,
    steps: 3, modelCalls: 0, promptTokens: 0, completionTokens: 0, decisionLatenciesMs: [], durationMs: 5,
    error: outcome === 'error' ? 'unreadable' : null, instruction: 'x', answer: null, actions: [], taught, instance: 1,
  };
}

function result(tasks: BenchResult['tasks'], records: AttemptRecord[]): BenchResult {
  return {
    suite: 's', policy: 'offline', policyDescription: '', seed: 0, attempts: 2, memory: 'fresh', profile: 'full', teach: 1,
    learners: ['static'], tasks, summaries: [], targets: {}, records, crashed: [], startedAt: '', durationMs: 0,
  };
}

describe('setReport', () => {
  it('prints nothing when no task names the test set', () => {
    expect(setReport(result([{ id: 'a.1', template: 'a' }], [rec('a.1', 1, 'success', true)]))).toEqual([]);
  });

  it('prints development and test rows apart, with the misses and errors of each', () => {
    const text = setReport(result(
      [{ id: 'a.1', template: 'a', set: 'development' }, { id: 'b.1', template: 'b', set: 'test' }],
      [rec('a.1', 1, 'success', true), rec('a.1', 2, 'success', false), rec('b.1', 1, 'success', true), rec('b.1', 2, 'error', false)],
    )).join('\n');
    expect(text).toMatch(/\| development \| static +\| +1 \/ 1 \| +100\.0 \(1\/1\) \| +100\.0 \(1\/1\) \| +100\.0 \(1\/1\) \| +0 \|/);
    expect(text).toMatch(/\| test +\| static +\| +1 \/ 1 \| +100\.0 \(1\/1\) \| +0\.0 \(0\/1\) \| +0\.0 \(0\/1\) \| +1 \|/);
    expect(text).toContain('- development / static: none');
    expect(text).toContain('- test / static: b.1#2 (error)');
  });
});
