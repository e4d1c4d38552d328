import { describe, expect, it } from 'vitest';
import { EvotestRuntime, type TrajectoryInput } from '../core/evotest-runtime.ts';
import { lineageStoreOn } from '../core/lineage-store.ts';
import { InMemoryLearnerDataStore } from '../../../core/learning/in-memory/in-memory-learner-data-store.ts';
import { DEFAULT_EVOTEST_SETTINGS } from '../core/settings.ts';
import { SEED, TUNABLES } from './evotest-helpers.ts';

const ORIGIN = 'https://shop.test';
const ORDERS = 'click(<link "Orders">)';
const NEXT = 'click(<button "Next">)';
const DONE = 'send_msg_to_user("shipped")';

function runtime(store = lineageStoreOn(new InMemoryLearnerDataStore())) {
  let t = 100;
  return { store, rt: new EvotestRuntime({ store, settings: () => ({ ...DEFAULT_EVOTEST_SETTINGS, enabled: true }), model: () => null, seed: () => SEED, tunables: TUNABLES, clock: { now: () => t++ } }) };
}

const trajectory = (episodeId: string, outcome: TrajectoryInput['outcome'], steps: TrajectoryInput['steps']): TrajectoryInput => ({ episodeId, task: 'Ship order 12', outcome, hitStepLimit: false, steps });
const s = (action: string, regUrl: string, reward: number, page = ''): TrajectoryInput['steps'][number] => ({ regUrl, title: regUrl, pageDigest: page, action, ok: true, reward, rejected: [], evidence: null });

describe('EvoTest runtime (act → evolve → select)', () => {
  it('starts on the seed, learns a success, then hints and shifts on the same page for the next task of the template', async () => {
    const { rt, store } = runtime();
    const plan = await rt.begin({ origin: ORIGIN, task: 'Ship order 12' });
    expect(plan).toMatchObject({ configurationId: 'c0', mode: 'offline', pinned: false });
    const first = await rt.stepGuidance(plan, { regUrl: '/', pageText: '', done: [], earlierMilestones: [] });
    expect(first).toEqual({ hints: { suggested: [], avoid: [] }, milestones: [], text: '' });

    const report = await rt.finish(plan, trajectory('e1', 'success', [s(ORDERS, '/', 0.5, 'Page: Home (https://shop.test/)'), s(DONE, '/orders', 1, 'Page: Orders (https://shop.test/orders)\n  heading "Shipped" level=1')]));
    expect(report.mode).toBe('offline');
    const lineage = (await store.get(plan.lineageKey))!;
    expect(lineage.template).toBe('ship order …');
    expect(lineage.nodes[0]!.runs.map((r) => r.score)).toEqual([1]);
    expect(lineage.episodes[0]!.steps[1]!.page).toEqual(['Page: Orders (https://shop.test/orders)', 'heading "Shipped" level=1']);

    // Another order, same template: the memory hints the successful action on "/".
    const next = await rt.begin({ origin: ORIGIN, task: 'Ship order 15' });
    expect(next.lineageKey).toBe(plan.lineageKey);
    const g = await rt.stepGuidance(next, { regUrl: '/', pageText: '', done: [], earlierMilestones: [] });
    expect(g.hints.suggested).toEqual([ORDERS]);
    expect(g.text).toContain(`- ${ORDERS}`);
    // Suggestion phrasing: no logit shift; instruction phrasing: + instructionBonus.
    expect(rt.shift(next, g, [ORDERS, NEXT]).shifts).toEqual([0, 0]);
    const instructed = { ...next, configuration: { ...next.configuration, memoryRules: { ...next.configuration.memoryRules, hintPhrasing: 'instruction' as const } } };
    const shifted = rt.shift(instructed, g, [NEXT, ORDERS]);
    expect(shifted.shifts).toEqual([0, 1]);
    expect(shifted.candidates).toEqual([null, { shift: 1, reason: 'hinted' }]);
    expect(shifted.evidence).toEqual({ configurationId: next.configurationId, hinted: [ORDERS], avoided: [], milestones: [] });
  });

  it('two episodes of one lineage finishing at once both count (writes are serialised, none is lost)', async () => {
    const { rt, store } = runtime();
    const a = await rt.begin({ origin: ORIGIN, task: 'Ship order 12' });
    const b = await rt.begin({ origin: ORIGIN, task: 'Ship order 13' });
    await Promise.all([
      rt.finish(a, trajectory('e1', 'success', [s(DONE, '/orders', 1)])),
      rt.finish(b, trajectory('e2', 'failure', [s(NEXT, '/orders', -0.1)])),
      rt.remember(ORIGIN, trajectory('e3', 'success', [s(ORDERS, '/', 1)])),
    ]);
    const lineage = (await store.get(a.lineageKey))!;
    expect(lineage.episodes.map((e) => e.episodeId).sort()).toEqual(['e1', 'e2', 'e3']);
    expect(lineage.nodes[0]!.runs.map((r) => r.score)).toEqual([1, 0]);
  });

  it('a loop becomes a failure pattern that costs the looping action its avoid penalty', async () => {
    const { rt } = runtime();
    const plan = await rt.begin({ origin: ORIGIN, task: 'Find order 3' });
    await rt.finish(plan, trajectory('e1', 'failure', [s(NEXT, '/orders', -0.1), s(NEXT, '/orders', -0.1), s(NEXT, '/orders', -0.1)]));
    const again = await rt.begin({ origin: ORIGIN, task: 'Find order 3' });
    const g = await rt.stepGuidance(again, { regUrl: '/orders', pageText: '', done: [], earlierMilestones: ['Orders listed'] });
    expect(g.hints.avoid.map((f) => f.action)).toEqual([NEXT]);
    expect(g.milestones).toEqual(['Orders listed']);
    expect(rt.shift(again, g, [NEXT]).shifts).toEqual([-again.configuration.memoryRules.avoidPenalty]);
  });

  it('drops the result of an episode whose lineage was forgotten meanwhile', async () => {
    const { rt, store } = runtime();
    const plan = await rt.begin({ origin: ORIGIN, task: 'Ship order 12' });
    await store.forgetSite(ORIGIN);
    const report = await rt.finish(plan, trajectory('e1', 'success', [s(ORDERS, '/', 1)]));
    expect(report.notes[0]).toMatch(/reset or forgotten/);
    expect(await store.list(ORIGIN)).toEqual([]);
  });
  it('runs the configuration that just won again, though UCB ranks an untried child first (finding 7)', async () => {
    const { rt } = runtime();
    const first = await rt.begin({ origin: ORIGIN, task: 'Ship order 12' });
    await rt.finish(first, trajectory('e1', 'failure', [s(NEXT, '/orders', -0.1)]));
    // The seed failed; UCB tries its first child c1, which wins.
    const second = await rt.begin({ origin: ORIGIN, task: 'Ship order 13' });
    expect([second.configurationId, second.chosenBy]).toEqual(['c1', 'ucb']);
    await rt.finish(second, trajectory('e2', 'success', [s(DONE, '/orders', 1)]));
    const third = await rt.begin({ origin: ORIGIN, task: 'Ship order 14' });
    // c1's child c3 carries c1's mean 1 as its prior and the larger bonus (n = 0): UCB's pick.
    const byUcb = [...third.ucb!].sort((a, b) => b.ucb - a.ucb)[0]!;
    expect(byUcb.id).toBe('c3');
    expect([third.configurationId, third.chosenBy]).toEqual(['c1', 'repeat-winner']);
    expect(third.configuration).toEqual(second.configuration);
  });
});

describe('EvoTest runtime: episodes no configuration ran', () => {
  it('keeps a demonstration in the shared memory without scoring any configuration', async () => {
    const { rt, store } = runtime();
    expect(await rt.remember(ORIGIN, trajectory('demo', 'success', []))).toBe(false);
    expect(await rt.remember(ORIGIN, trajectory('demo', 'success', [s(ORDERS, '/', 0.5)]))).toBe(true);
    const [lineage] = await store.list(ORIGIN);
    expect(lineage!.nodes.map((n) => n.runs.length)).toEqual([0]);
    expect(lineage!.episodes.map((e) => [e.episodeId, e.configurationId])).toEqual([['demo', '']]);
    const plan = await rt.begin({ origin: ORIGIN, task: 'Ship order 99' });
    expect((await rt.stepGuidance(plan, { regUrl: '/', pageText: '', done: [], earlierMilestones: [] })).hints.suggested).toEqual([ORDERS]);
  });
});
