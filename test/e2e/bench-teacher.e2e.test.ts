/**
 * The benchmark's teacher end to end in headless Chromium: the shipped
 * teachers read real pages, their steps go through the agent's decision path,
 * and what was taught once lets the next attempt run alone. One task per
 * shipped site. Needs dist-inject (`npm run build`).
 */
import { describe, expect, it } from 'vitest';
import { runBench } from '../../bench/bench-runner.ts';
import { resolveTasks, type Suite } from '../../bench/suite.ts';
import apprenticeSites from '../../bench/suites/apprentice-sites/index.ts';

const ids = ['shop.add-to-cart.202', 'forum.comment.7', 'admin.customer-group.3', 'settings.newsletter-off'];
const suite: Suite = {
  name: 'teacher-mini',
  start: () => apprenticeSites.start!(),
  stop: () => apprenticeSites.stop!(),
  tasks: (ctx) => resolveTasks(apprenticeSites, ctx).filter((t) => ids.includes(t.id)),
};

describe('--teach 1', () => {
  it('each teacher completes its task with corrections through the decision path, and attempt 2 alone succeeds', async () => {
    const result = await runBench({
      suite, learners: ['jitrl+cer'], attempts: 2, policy: 'offline', noise: 0, seed: 0, memory: 'fresh', profile: 'full', taskFilter: '', progress: false, teach: 1,
    });
    const taught = result.records.filter((r) => r.attempt === 1);
    expect(taught.map((r) => [r.taskId, r.taught, r.outcome])).toEqual(ids.map((id) => [id, true, 'success']));
    for (const r of taught) expect(r.teaching!.unteachable).toEqual([]);
    // The offline policy's own proposals are wrong somewhere in these tasks: the teacher corrected them.
    expect(taught.reduce((n, r) => n + r.teaching!.picks + r.teaching!.edits, 0)).toBeGreaterThan(0);
    expect(taught.some((r) => r.actions.some((a) => /\((pick|edit)\)$/.test(a)))).toBe(true);
    const alone = result.records.filter((r) => r.attempt === 2);
    expect(alone.map((r) => [r.taskId, r.taught, r.outcome])).toEqual(ids.map((id) => [id, false, 'success']));
    expect(result.teaching?.[0]?.sameInstance).toEqual({ completed: 4, aloneSucceeded: 4, rate: 1 });
  });
});
