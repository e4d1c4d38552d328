/** The benchmark's cost columns (issue 25), with hand-computed numbers, and the changed-site check's change. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attemptCost, costByAttempt, costTable, fallbackLines } from '../../bench/cost-metrics.ts';
import type { AttemptRecord } from '../../bench/metrics.ts';
import { changeSettingsApp } from '../../bench/suites/changed-settings/index.ts';
import { parseLearnerConfig } from '../../bench/bench-runner.ts';
import { episode, step, candidate } from './ui-fake-connector.ts';

const rec = (over: Partial<AttemptRecord>): AttemptRecord => ({
  learner: 'jitrl+cer+replay', taskId: 't', template: null, attempt: 1, outcome: 'success', reward: 1, steps: 3, modelCalls: 0,
  promptTokens: 0, completionTokens: 0, decisionLatenciesMs: [], durationMs: 0, error: null, instruction: '', answer: null, actions: [], ...over,
});

describe('cost by attempt', () => {
  it('divides all calls of an attempt number by its successes; replayed steps per attempt; fallbacks counted', () => {
    const records = [
      rec({ taskId: 'a', attempt: 1, policyCalls: 4, modelCalls: 4, replayedSteps: 0 }),
      rec({ taskId: 'b', attempt: 1, outcome: 'failure', policyCalls: 8, modelCalls: 8, replayedSteps: 0 }),
      rec({ taskId: 'a', attempt: 2, policyCalls: 0, modelCalls: 0, replayedSteps: 3 }),
      rec({ taskId: 'b', attempt: 2, policyCalls: 2, modelCalls: 2, replayedSteps: 2, replayFallback: 'step 3: <button "Save"> is not on the page' }),
    ];
    expect(costByAttempt(records, 'jitrl+cer+replay', 2)).toEqual([
      { attempt: 1, attempts: 2, successes: 1, modelCallsPerSuccess: 12, policyCallsPerSuccess: 12, replayedStepsPerAttempt: 0, fallbacks: 0 },
      { attempt: 2, attempts: 2, successes: 2, modelCallsPerSuccess: 1, policyCallsPerSuccess: 1, replayedStepsPerAttempt: 2.5, fallbacks: 1 },
    ]);
    expect(costTable(records, ['jitrl+cer+replay'], 2)[2]).toEqual(['jitrl+cer+replay', '2', '2/2', '1.00', '1.00', '2.50', '1']);
    expect(fallbackLines(records)).toEqual(['- jitrl+cer+replay / b / attempt 2 (success): step 3: <button "Save"> is not on the page']);
    // No success: a cost per success does not exist (not zero).
    expect(costByAttempt([rec({ outcome: 'failure', policyCalls: 5 })], 'jitrl+cer+replay', 1)[0]!.policyCallsPerSuccess).toBeNull();
  });

  it('an episode\'s policy calls are its proposals that were not replayed', () => {
    const replayed = step({ index: 0, replayStep: { procedureId: 's', step: 0, of: 2 }, candidates: [candidate({ origin: 'memory' })], chosen: { action: 'a', semantic: 'a', decision: 'auto' } });
    const proposed = step({ index: 1, chosen: { action: 'b', semantic: 'b', decision: 'approved' } });
    const pending = step({ index: 2 });
    const ep = episode({ steps: [replayed, proposed, pending] });
    expect(attemptCost(ep)).toEqual({ policyCalls: 2, replayedSteps: 1, replayFallback: null });
  });

  it('"+replay" turns replay on for a configuration of registry learners', () => {
    expect(parseLearnerConfig('jitrl+cer+replay')).toEqual({ ok: true, ids: ['jitrl', 'cer'], replay: true });
    expect(parseLearnerConfig('jitrl+cer')).toEqual({ ok: true, ids: ['jitrl', 'cer'], replay: false });
  });
});

describe('the changed-site check', () => {
  it('renames the save button and moves the time zone field to the top of the shipped profile form', () => {
    const source = readFileSync(resolve(import.meta.dirname, '../../bench/suites/apprentice-sites/sites/settings/app.js'), 'utf8');
    const changed = changeSettingsApp(source);
    expect(changed).toContain("}, 'Update profile'),");
    expect(changed).not.toContain("'Save changes'");
    expect(changed.indexOf("'Time zone'")).toBeLessThan(changed.indexOf("'Display name'"));
    expect(source.indexOf("'Time zone'")).toBeGreaterThan(source.indexOf("'Display name'"));
    expect(() => changeSettingsApp('nothing of the form')).toThrow('the shipped settings app changed');
  });
});
