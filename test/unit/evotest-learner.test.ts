/**
 * EvoTest through the agent controller: the configuration chosen at the start
 * is checkpointed on the episode and survives a worker restart; its
 * hyperparameters reach the request (temperature, candidates), JitRL (β, λ, r)
 * and the step limit; its memory hints chain after JitRL; after the verdict
 * the lineage records the run and grows children.
 */
import { describe, expect, it } from 'vitest';
import { AgentController, type AgentDeps } from '../../src/core/agent/agent-controller.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import { InMemoryExperienceStore } from '../../src/learners/cer/core/experience-store.ts';
import { EvoPlanSchema, EvoStepEvidenceSchema } from '../../src/learners/evotest/core/episode-plan.ts';
import { lineageStoreOn } from '../../src/learners/evotest/core/lineage-store.ts';
import { InMemoryLearnerDataStore } from '../../src/core/learning/in-memory/in-memory-learner-data-store.ts';
import { addChildren, newLineage, recordEpisode } from '../../src/learners/evotest/core/lineage.ts';
import { withTuned } from '../../src/learners/jitrl/core/tunables.ts';
import type { LearnerPorts } from '../../src/core/learning/learner-definition.ts';
import { buildLearners, enabledLearners } from '../../src/core/learning/registry/registry-factories.ts';
import { InMemoryStepRowStore } from '../../src/core/stores/in-memory-step-rows.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import type { CandidatePolicy, PolicyInput } from '../../src/core/policy/policy.ts';
import { seededRandom } from '../../src/core/random.ts';
import { DEFAULT_SETTINGS, type Settings } from '../../src/core/settings.ts';
import { DEFAULT_JITRL } from '../../src/learners/jitrl/core/settings.ts';
import { digest, SEED, step } from '../../src/learners/evotest/test/evotest-helpers.ts';
import { testLearnerStores } from '../support/learner-stores.ts';

const node = (ref: string, role: string, name: string): SnapshotNode => ({ ref, kind: 'interactive', role, name, states: {}, depth: 0, inViewport: true });
const PAGE: PageObservation = {
  url: 'https://shop.test/orders', title: 'Orders', nodes: [node('1', 'button', 'Next'), node('2', 'link', 'Order 12')], focusedRef: null,
  offscreen: { above: 0, below: 0 }, omissions: [], scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
};
const NEXT = 'click(<button "Next">)';
const ORDER = 'click(<link "Order 12">)';

function policy(calls: PolicyInput[]): CandidatePolicy {
  return {
    id: 'fixed',
    async propose(input) {
      calls.push(input);
      const candidates = ([['click([1])', 2], ['click([2])', 1]] as const).map(([t, z]) => {
        const parsed = parseAction(t);
        if (!parsed.ok) throw parsed.error;
        return { action: parsed.action, logit: z };
      });
      return { candidates, logitSource: 'offline', usage: { calls: 0, promptTokens: 0, completionTokens: 0 }, notes: [] };
    },
  };
}

const SETTINGS: Settings = { ...DEFAULT_SETTINGS, learners: { cer: { enabled: false }, evotest: { enabled: true } } };

function setup(episodes: InMemoryEpisodeStore, learnerData: InMemoryLearnerDataStore, calls: PolicyInput[]) {
  let t = 1000;
  let id = 0;
  const ports: LearnerPorts = {
    stores: testLearnerStores({ memory: new InMemoryStepRowStore(), experiences: new InMemoryExperienceStore(), learnerData }),
    settings: () => SETTINGS,
    model: () => null,
    clock: { now: () => (t += 10) },
    random: seededRandom(1),
  };
  const built = buildLearners(ports);
  const deps: AgentDeps = {
    episodes,
    pageFor: () => ({ observe: async () => PAGE, act: async () => ({ ok: true, navigated: false }) }),
    policy: () => policy(calls),
    learners: () => enabledLearners(built, SETTINGS),
    evaluator: () => null,
    settings: () => SETTINGS,
    clock: ports.clock,
    logger: { info: () => {}, warn: () => {}, error: () => {} },
    newId: () => `ep-${++id}`,
  };
  return new AgentController(deps);
}

describe('EvoTest through the controller', () => {
  it('runs the UCB-chosen configuration, keeps it across a restart, applies its genes and hints, then evolves', async () => {
    const episodes = new InMemoryEpisodeStore();
    const learnerData = new InMemoryLearnerDataStore();
    const lineages = lineageStoreOn(learnerData);
    // A lineage that already ran c0 once (a loop on Next, failed) and has one untried child c1.
    const child = { ...SEED, guidance: 'Open the order itself.', hyperparameters: { ...SEED.hyperparameters, temperature: 1.1, numCandidates: 2, beta: 3, threshold: 0.85, maxSteps: 2 }, memoryRules: { ...SEED.memoryRules, avoidPenalty: 1.5 } };
    let lineage = newLineage({ origin: 'https://shop.test', template: 'open order …', seed: SEED, now: 0 });
    lineage = recordEpisode(lineage, digest([step(NEXT, { regUrl: '/orders' }), step(NEXT, { regUrl: '/orders' }), step(NEXT, { regUrl: '/orders' })], { episodeId: 'old', outcome: 'failure', score: 0 }), 1);
    lineage = addChildren(lineage, 'c0', [{ configuration: child, source: 'offline', rationale: 'test child' }], 2).lineage;
    await lineages.put(lineage);

    const calls: PolicyInput[] = [];
    let ep = await setup(episodes, learnerData, calls).start({ task: 'Open order 12', startUrl: 'https://shop.test/orders', tabId: 1 });
    // UCB: c0 μ̂ = 0, n = 1 → sqrt(ln 2 / 2); c1 prior 0, n = 0 → sqrt(ln 2): the child runs.
    const plan = EvoPlanSchema.parse(ep.plans?.['evotest']);
    expect(plan.configurationId).toBe('c1');
    expect(plan.ucb?.map((r) => [r.id, Number(r.ucb.toFixed(6))])).toEqual([['c0', 0.588705], ['c1', 0.832555]]);
    // Its genes reach the request.
    expect(calls[0]).toMatchObject({ temperature: 1.1, numCandidates: 2, guide: 'Open the order itself.' });
    expect(calls[0]!.sections.map((s) => s.id)).toEqual(['evotest:c1']);
    expect(calls[0]!.sections[0]!.text).toContain(`- ${NEXT} (loop)`);
    // The loop on Next is a failure pattern: −1.5 on its logit, after JitRL (which had no memory).
    const first = ep.steps[0]!;
    expect(first.candidates.map((c) => [c.semantic, c.adjustedLogit])).toEqual([[ORDER, 1], [NEXT, 0.5]]);
    // The shift is the shifted candidate's evidence; the step's says what the memory held.
    expect(first.candidates.map((c) => [c.semantic, c.evidence?.['evotest']])).toEqual([[ORDER, undefined], [NEXT, { shift: -1.5, reason: 'avoided' }]]);
    expect(EvoStepEvidenceSchema.parse(first.evidence?.['evotest']).avoided).toEqual([NEXT]);

    // A worker restart mid-episode: a new controller on the same stores keeps c1.
    const restarted = setup(episodes, learnerData, calls);
    ep = await restarted.decide(ep.id, { kind: 'approve' });
    expect(EvoPlanSchema.parse(ep.plans?.['evotest']).configurationId).toBe('c1');
    expect(calls.at(-1)).toMatchObject({ temperature: 1.1, numCandidates: 2 });
    // The child's step limit (2) ends the episode, not the settings' 15.
    ep = await restarted.decide(ep.id, { kind: 'approve' });
    expect(ep.status).toBe('awaiting_verdict');
    expect(ep.error).toBe('step limit (2) reached');
    ep = await restarted.finish(ep.id, 'success');

    const after = (await lineages.list())[0]!;
    expect(after.nodes.find((n) => n.id === 'c1')!.runs.map((r) => [r.episodeId, r.score])).toEqual([[ep.id, 1]]);
    expect(after.currentId).toBe('c1');
    expect(after.nodes.filter((n) => n.parentId === 'c1').length).toBeGreaterThan(0);
    expect(ep.steps.at(-1)!.learningNotes.some((n) => n.startsWith('evotest: c1 scored success; evolver (offline) proposed'))).toBe(true);
  });

  it('moves JitRL\'s β, λ and r (and r\'s decay floor with it) from the configuration', () => {
    const s = { ...DEFAULT_JITRL, threshold: 0.8, thresholdFloor: 0.7 };
    const moved = withTuned(s, { beta: 3, lambda: 0.1, threshold: 0.85 });
    expect(moved).toMatchObject({ beta: 3, lambda: 0.1, threshold: 0.85 });
    expect(moved.thresholdFloor).toBeCloseTo(0.75, 12);
    expect(withTuned(s, {})).toEqual(s);
    expect(withTuned(s, undefined)).toBe(s);
  });
});

describe('EvoTest learns nothing about a configuration from a stopped episode', () => {
  it('keeps its steps in memory but scores no configuration', async () => {
    const episodes = new InMemoryEpisodeStore();
    const learnerData = new InMemoryLearnerDataStore();
    const calls: PolicyInput[] = [];
    const controller = setup(episodes, learnerData, calls);
    let ep = await controller.start({ task: 'Open order 12', startUrl: 'https://shop.test/orders', tabId: 1 });
    ep = await controller.decide(ep.id, { kind: 'approve' });
    ep = await controller.stop(ep.id);
    const [lineage] = await lineageStoreOn(learnerData).list();
    expect(lineage!.nodes.map((n) => n.runs.length)).toEqual([0]);
    expect(lineage!.episodes.map((e) => [e.episodeId, e.configurationId, e.outcome])).toEqual([[ep.id, '', 'stopped']]);
    expect(ep.steps.at(-1)!.learningNotes).toContain('evotest: kept in the lineage memory (stopped without a verdict, so not scored)');
  });
});
