/**
 * The benchmark runner end to end in headless Chromium, on tasks of the
 * shipped suite: deterministic static attempts, a reward that throws (an
 * error, not a failure, and the run goes on), and a renderer crash (retried
 * once, then reported). Needs dist-inject/page-agent.js (`npm run build`).
 */
import { describe, expect, it } from 'vitest';
import { runBench } from '../../bench/bench-runner.ts';
import { resolveTasks, type BenchTask, type Suite } from '../../bench/suite.ts';
import apprenticeSites from '../../bench/suites/apprentice-sites/index.ts';

function miniSuite(pick: (tasks: BenchTask[]) => BenchTask[]): Suite {
  return {
    name: 'mini',
    start: () => apprenticeSites.start!(),
    stop: () => apprenticeSites.stop!(),
    tasks: (ctx) => pick(resolveTasks(apprenticeSites, ctx)),
  };
}

const base = { attempts: 2, policy: 'offline' as const, noise: 0, seed: 0, memory: 'fresh' as const, profile: 'full', taskFilter: '', progress: false };

describe('runBench', () => {
  it('records successes, and a throwing reward as an error without stopping the run', async () => {
    const suite = miniSuite((all) => {
      const upvote = all.find((t) => t.id === 'forum.upvote.10')!;
      return [
        { ...upvote, id: 'throws', reward: async () => { throw new Error('boom'); } },
        upvote,
      ];
    });
    const result = await runBench({ ...base, suite, learners: ['static'], selection: 'argmax' });
    const rows = result.records.map((r) => [r.taskId, r.attempt, r.outcome, r.error]);
    expect(rows).toEqual([
      ['throws', 1, 'error', 'reward threw: boom'],
      ['throws', 2, 'error', 'reward threw: boom'],
      ['forum.upvote.10', 1, 'success', null],
      ['forum.upvote.10', 2, 'success', null],
    ]);
    const upvote = result.records.find((r) => r.taskId === 'forum.upvote.10')!;
    expect(upvote.actions).toEqual(['/ click(<button "Upvote “My first sourdough loaf”">)']);
    expect(result.summaries[0]).toMatchObject({ learner: 'static', errors: 2, avg: 0.5, final: 0.5 });
    expect(result.policy).toBe('offline, proposals by argmax');
  });

  it('retries a task whose browser dies once, then reports it, and goes on with a new browser', async () => {
    const suite = miniSuite((all) => {
      const upvote = all.find((t) => t.id === 'forum.upvote.10')!;
      return [
        {
          ...upvote,
          id: 'crashes',
          // The browser going away mid-task, as when Chromium crashes (CDP's
          // Page.crash takes minutes to write its minidump on these machines).
          setup: async (page) => { await page.context().browser()!.close(); },
        },
        upvote,
      ];
    });
    const result = await runBench({ ...base, suite, learners: ['static'] });
    expect(result.crashed.map((c) => c.taskId)).toEqual(['crashes']);
    expect(result.records.map((r) => [r.taskId, r.attempt, r.outcome])).toEqual([
      ['crashes', 1, 'error'],
      ['crashes', 2, 'error'],
      ['forum.upvote.10', 1, 'success'],
      ['forum.upvote.10', 2, 'success'],
    ]);
  });

  it('without the done oracle, the teaching person ends the task once its goal is reached, and the next attempt ends itself', async () => {
    // The shipped teachers are rule lists written for the oracle: at the goal they have no rule for "done".
    const suite = miniSuite((all) => [all.find((t) => t.id === 'forum.upvote.10')!]);
    const result = await runBench({ ...base, suite, learners: ['jitrl+cer'], teach: 1, oracle: false });
    expect(result.records.map((r) => [r.attempt, r.outcome, r.actions.map((a) => a.replace(/ \((pick|edit)\)$/, ''))])).toEqual([
      [1, 'success', ['/ click(<button "Upvote “My first sourdough loaf”">)', '/ send_msg_to_user("Done.")']],
      [2, 'success', ['/ click(<button "Upvote “My first sourdough loaf”">)', '/ send_msg_to_user("Done.")']],
    ]);
    expect(result.records.map((r) => r.ending)).toEqual([
      { byAgent: true, goalAtStep: 1, stepsAfterGoal: 1 },
      { byAgent: true, goalAtStep: 1, stepsAfterGoal: 1 },
    ]);
  }, 120_000);
});
