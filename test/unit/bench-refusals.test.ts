/** The benchmark's refused-actions table (issue 34): steps refused by cause, and the attempts they ended, hand-counted. */
import { describe, expect, it } from 'vitest';
import { refusalCounts, refusalTable } from '../../bench/action-failures.ts';
import type { AttemptRecord } from '../../bench/metrics.ts';
import { markdownReport } from '../../bench/report.ts';

const rec = (over: Partial<AttemptRecord>): AttemptRecord => ({
  learner: 'static', taskId: 't', template: null, attempt: 1, outcome: 'failure', reward: 0, steps: 3, modelCalls: 0,
  promptTokens: 0, completionTokens: 0, decisionLatenciesMs: [], durationMs: 0, error: null, instruction: '', answer: null, actions: [], ...over,
});

describe('refused actions by cause', () => {
  const records = [
    // Two obscured clicks, then the attempt ends on a stale ref.
    rec({ actions: ['/ click(<button "Search">) → obscured', '/ click(<button "Search">) → obscured', '/prefs fill(<textbox "Name">, "Ada") → element_gone'] }),
    // A refused click that was corrected, then a success: counted as a step, not as an ending.
    rec({ outcome: 'success', reward: 1, actions: ['/ click(<option "Admins">) → not_run (edit)', '/ click(<button "Save">)'] }),
    // Ended by not_run.
    rec({ actions: ['/ fill(<textbox "Name">, "a → b")', '/ click(<tab "Appearance">) → not_run'] }),
    rec({ learner: 'jitrl', actions: ['/ click(<link "Help">) → navigated'] }),
  ];

  it('counts each failed step by its code and each failed attempt by its last step', () => {
    expect(refusalCounts(records.filter((r) => r.learner === 'static'))).toEqual({
      steps: { not_run: 2, obscured: 2, element_gone: 1 },
      endedBy: { not_run: 1, obscured: 0, element_gone: 1 },
    });
  });

  it('is one row per learner in the report', () => {
    expect(refusalTable(records, ['static', 'jitrl'])).toEqual([
      ['Learner', 'not_run', 'obscured', 'element_gone (stale ref)'],
      ['static', '2 (1)', '2 (0)', '1 (1)'],
      ['jitrl', '0 (0)', '0 (0)', '0 (0)'],
    ]);
  });

  it('a mutant run says so in its report\'s title, a real run does not', () => {
    const result = {
      suite: 'real-apps', policy: 'offline', policyDescription: 'd', seed: 0, attempts: 2, memory: 'fresh' as const, profile: 'quick', learners: [],
      tasks: [], summaries: [], targets: {}, records: [], crashed: [], startedAt: '', durationMs: 0,
    };
    expect(markdownReport({ ...result, mutant: 'settle-off' }).split('\n')[0]).toBe('# Benchmark: real-apps — mutant settle-off');
    expect(markdownReport(result).split('\n')[0]).toBe('# Benchmark: real-apps');
  });
});
