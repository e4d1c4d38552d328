/**
 * The learning seam end to end: a tiny example learner, defined here as one
 * registry entry (settings schema, plan and evidence schemas, factory), is
 * registered after JitRL and CER and runs through the agent controller:
 * its plan is checkpointed on the episode and survives a restart, it shapes
 * the request, its adjustment chains after JitRL's with its evidence kept
 * under its id, and it learns from a trajectory that keeps what the page
 * showed, secrets masked.
 */
import { silentLogger } from '../../src/core/ports.ts';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AgentController, type AgentDeps } from '../../src/core/agent/agent-controller.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import { upgradeStoredEpisode } from '../../src/core/learning/stored-step-upgrade.ts';
import { EpisodeSchema } from '../../src/core/episode/episode.ts';
import { InMemoryExperienceStore } from '../../src/learners/cer/core/experience-store.ts';
import { InMemoryLearnerDataStore } from '../../src/core/learning/in-memory/in-memory-learner-data-store.ts';
import { LearnerData } from '../../src/core/learning/learner-data.ts';
import { exportMemory, forgetSite, importMemory } from '../../src/core/learning/memory-transfer.ts';
import { inMemoryImportWriter } from '../../src/core/learning/in-memory/in-memory-import.ts';
import { learnerSettings, type LearnerPorts, type RegisteredLearner } from '../../src/core/learning/learner-definition.ts';
import type { FinishedEpisode, Learner } from '../../src/core/learning/learner.ts';
import { LEARNERS, learnerDefinition, UnknownLearnerError } from '../../src/core/learning/registry/registry.ts';
import { buildLearners, enabledLearners, REGISTERED_LEARNERS } from '../../src/core/learning/registry/registry-factories.ts';
import { InMemoryStepRowStore } from '../../src/core/stores/in-memory-step-rows.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import { PAGE_DIGEST_CHARS, pageDigest } from '../../src/core/secrets/page-digest.ts';
import type { CandidatePolicy, PolicyInput } from '../../src/core/policy/policy.ts';
import { seededRandom } from '../../src/core/random.ts';
import { DEFAULT_SETTINGS, type Settings } from '../../src/core/settings.ts';
import { testLearnerStores } from '../support/learner-stores.ts';

const node = (ref: string, role: string, name: string, extra: Partial<SnapshotNode> = {}): SnapshotNode => ({
  ref, kind: 'interactive', role, name, states: {}, depth: 0, inViewport: true, ...extra,
});

const observation = (nodes: SnapshotNode[]): PageObservation => ({
  url: 'https://shop.test/login', title: 'Sign in', nodes, focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [],
  scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
});

const LOGIN = observation([
  node('1', 'textbox', 'Password', { inputType: 'password', value: 'hunter2' }),
  node('2', 'button', 'Sign in'),
  node('3', 'textbox', 'PIN', { value: '1234' }),
]);

// ── The example learner: one registry entry ─────────────────────────────────
const ExampleSettingsSchema = z.strictObject({ enabled: z.boolean(), boost: z.number() });
const ExamplePlanSchema = z.strictObject({ guide: z.string() });
const ExampleEvidenceSchema = z.strictObject({ boosted: z.string(), by: z.number() });

/** What the example remembers per site, in the generic learner store: how many episodes it learned from. */
const ExampleMemorySchema = z.strictObject({ episodes: z.number().int() });
const exampleData = (ports: LearnerPorts) => new LearnerData(ports.stores.learnerData, 'example', ExampleMemorySchema, ports.clock);

const learned: FinishedEpisode[] = [];
let planCalls = 0;

const exampleDefinition: RegisteredLearner<z.infer<typeof ExampleSettingsSchema>> = {
  id: 'example',
  label: 'Example',
  settings: { schema: ExampleSettingsSchema, defaults: { enabled: true, boost: 1 }, read: (s) => learnerSettings(exampleDefinition, s) },
  enabled: (s) => learnerSettings(exampleDefinition, s).enabled,
  needsModel: { level: 'no', description: 'Rule-based.' },
  planSchema: ExamplePlanSchema,
  evidenceSchema: ExampleEvidenceSchema,
  keepsMemory: true,
  create: (ports: LearnerPorts): Learner => ({
    id: 'example',
    async beginEpisode(start) {
      planCalls++;
      return { guide: `Attempt ${start.attempt}: sign in first.` };
    },
    async shapeRequest(context, current) {
      const plan = ExamplePlanSchema.parse(context.plan);
      return { guide: { mode: 'append', text: plan.guide }, temperature: current.temperature / 2, numCandidates: 2 };
    },
    async adjust(input) {
      const { boost } = learnerSettings(exampleDefinition, ports.settings());
      // Boosts the last candidate: z' = z + boost (the seam takes the probabilities again).
      const last = input.candidates.length - 1;
      return {
        candidates: input.candidates.map((c, i) => (i === last ? { ...c, adjustedLogit: c.adjustedLogit + boost } : c)),
        evidence: { boosted: input.candidates[last]!.semantic, by: boost },
        notes: [],
      };
    },
    async learn(trajectory) {
      learned.push(trajectory);
      const data = exampleData(ports);
      const read = await data.get(trajectory.episode.origin, 'tally');
      await data.put(trajectory.episode.origin, 'tally', { episodes: (read.status === 'found' ? read.record.value.episodes : 0) + 1 });
    },
  }),
  memory: (ports) => exampleData(ports).memory(),
};

const REGISTRY = [...REGISTERED_LEARNERS, exampleDefinition];

/** Two candidates on the sign-in page, z = 2 and 1; the answer after signing in. */
function policy(calls: PolicyInput[]): CandidatePolicy {
  return {
    id: 'fixed',
    async propose(input) {
      calls.push(input);
      const texts: [string, number][] = [['click([2])', 2], ['fill([3], "0000")', 1], ['click([1])', 0.5]];
      const candidates = texts.map(([t, z]) => {
        const parsed = parseAction(t);
        if (!parsed.ok) throw parsed.error;
        return { action: parsed.action, logit: z };
      });
      return { candidates: candidates.slice(0, input.numCandidates), logitSource: 'offline', usage: { calls: 0, promptTokens: 0, completionTokens: 0 }, notes: [] };
    },
  };
}

function setup(store: InMemoryEpisodeStore, settings: Settings, calls: PolicyInput[]) {
  let t = 1000;
  let id = 0;
  const ports: LearnerPorts = {
    stores: testLearnerStores({ memory: new InMemoryStepRowStore(), experiences: new InMemoryExperienceStore(), learnerData: new InMemoryLearnerDataStore() }),
    settings: () => settings,
    model: () => null,
    clock: { now: () => (t += 10) },
    random: seededRandom(1),
  };
  const built = buildLearners(ports, { registry: REGISTRY });
  const deps: AgentDeps = {
    episodes: store,
    pageFor: () => ({ observe: async () => LOGIN, act: async () => ({ ok: true, navigated: false }) }),
    policy: () => policy(calls),
    learners: () => enabledLearners(built, settings),
    evaluator: () => null,
    settings: () => settings,
    clock: ports.clock,
    logger: { info: () => {}, warn: () => {}, error: () => {} },
    newId: () => `ep-${++id}`,
  };
  return { controller: new AgentController(deps), built };
}

describe('the learner registry', () => {
  it('lists CER, JitRL, TF-GRPO, EvoTest then Meta-TTL, builds a subset by id, and names unknown ids', () => {
    // The shipped learners in their calling order; a learner added later (new-learner appends it) may come anywhere.
    const shipped = ['cer', 'jitrl', 'tfgrpo', 'evotest', 'metattl'];
    expect(LEARNERS.map((d) => d.id).filter((id) => shipped.includes(id))).toEqual(shipped);
    expect(new Set(LEARNERS.map((d) => d.id)).size).toBe(LEARNERS.length);
    const ports = { stores: testLearnerStores({ memory: new InMemoryStepRowStore(), experiences: new InMemoryExperienceStore(), learnerData: new InMemoryLearnerDataStore() }), settings: () => DEFAULT_SETTINGS, model: () => null, clock: { now: () => 0 }, random: seededRandom(0) };
    expect(buildLearners(ports, { ids: ['jitrl'] }).map((b) => b.learner.id)).toEqual(['jitrl']);
    expect(() => learnerDefinition('no-such-learner')).toThrow(UnknownLearnerError);
    const off: Settings = { ...DEFAULT_SETTINGS, learners: { cer: { enabled: false } } };
    expect(enabledLearners(buildLearners(ports), off).map((l) => l.id)).toEqual(['jitrl', 'tfgrpo']);
  });

  it('reads a registered learner\'s settings over its defaults, and falls back on invalid ones', () => {
    expect(learnerSettings(exampleDefinition, DEFAULT_SETTINGS)).toEqual({ enabled: true, boost: 1 });
    expect(learnerSettings(exampleDefinition, { ...DEFAULT_SETTINGS, learners: { example: { boost: 3 } } })).toEqual({ enabled: true, boost: 3 });
    expect(learnerSettings(exampleDefinition, { ...DEFAULT_SETTINGS, learners: { example: { boost: 'lots' } } })).toEqual({ enabled: true, boost: 1 });
  });
});

describe('an example learner through the controller', () => {
  it('plans, shapes the request, chains its adjustment after JitRL, keeps its evidence, and learns', async () => {
    learned.length = 0;
    planCalls = 0;
    const store = new InMemoryEpisodeStore();
    const calls: PolicyInput[] = [];
    // argmax: the proposal shown first is the top z′ (this test is about the seam, not the draw).
    const settings: Settings = { ...DEFAULT_SETTINGS, agent: { ...DEFAULT_SETTINGS.agent, selection: 'argmax' }, learners: { example: { boost: 2 } } };
    const { controller } = setup(store, settings, calls);
    let ep = await controller.start({ task: 'sign in', startUrl: 'https://shop.test/login', tabId: 7 });

    expect(ep.learners).toEqual(['cer', 'jitrl', 'tfgrpo', 'example']);
    expect(ep.plans).toEqual({ example: { guide: 'Attempt 1: sign in first.' } });
    // The request as the example shaped it: guide appended to none, temperature halved, two candidates.
    expect(calls[0]!.guide).toBe('Attempt 1: sign in first.');
    expect(calls[0]!.temperature).toBe(0.4);
    expect(calls[0]!.numCandidates).toBe(2);

    // JitRL has no memory (logits unchanged); the example adds 2 to the last: z' = (2, 3).
    const step = ep.steps[0]!;
    // The PIN is a secret: stored masked, in the candidates and in the evidence (issue 11).
    expect(step.candidates.map((c) => c.action)).toEqual(['fill([3], "{password}")', 'click([2])']);
    expect(step.candidates.map((c) => c.adjustedLogit)).toEqual([3, 2]);
    expect(step.candidates[0]!.adjustedProb).toBeCloseTo(Math.E / (1 + Math.E), 12);
    expect(step.candidates[0]!.baseProb).toBeCloseTo(1 / (1 + Math.E), 12);
    expect(ExampleEvidenceSchema.parse(step.evidence?.example)).toEqual({ boosted: 'fill(<textbox "PIN">, "{password}")', by: 2 });
    expect(step.learningNotes).toContain('no similar experience on this page yet: logits unchanged');

    // What the page showed is kept, bounded, with the secrets masked.
    expect(step.pageTitle).toBe('Sign in');
    expect(step.pageDigest).toContain('button "Sign in"');
    expect(step.pageDigest).toContain('value="{password}"');
    expect(step.pageDigest).not.toContain('hunter2');
    expect(step.pageDigest).not.toContain('1234');
    expect(EpisodeSchema.safeParse(ep).success).toBe(true);

    // A restarted worker (a new controller on the same store) proposes with the checkpointed plan, not a new one.
    const restarted = setup(store, settings, calls).controller;
    ep = await restarted.decide(ep.id, { kind: 'reject' });
    ep = await restarted.decide(ep.id, { kind: 'reject' });
    expect(planCalls).toBe(1);
    expect(calls.at(-1)!.guide).toBe('Attempt 1: sign in first.');

    ep = await restarted.decide(ep.id, { kind: 'approve' });
    ep = await restarted.finish(ep.id, 'success');
    expect(learned).toHaveLength(1);
    expect(learned[0]!.episode.steps.every((s) => s.pageDigest !== undefined && !s.pageDigest.includes('hunter2'))).toBe(true);
  });
});

describe('page digest', () => {
  it('caps the rendering and never exceeds the cap', () => {
    const many = observation(Array.from({ length: 400 }, (_, i) => node(String(i), 'link', `Product number ${i} with a long name`)));
    const digest = pageDigest(many);
    expect(digest.length).toBeLessThanOrEqual(PAGE_DIGEST_CHARS);
    expect(digest).toContain('truncated to 4000 chars');
  });

  it('an episode stored before trajectories kept pages still parses', () => {
    const old = {
      id: 'old', origin: 'https://shop.test', task: 't', startUrl: 'https://shop.test/', tabId: null, status: 'success', answer: null, error: null,
      learners: ['jitrl'], attempt: 1, kind: 'live', startedAt: 0, endedAt: 1,
      steps: [{
        index: 0, url: 'https://shop.test/', regUrl: '/', effectiveState: [], logitSource: 'offline', candidates: [], v: null, neighbours: [],
        droppedMemoryActions: 0, replayed: [], learningNotes: [], chosen: null, rejected: [], result: null, reward: null,
        decisionLatencyMs: 0, modelCalls: 0, promptTokens: 0, completionTokens: 0, startedAt: 0,
      }],
    };
    // Loading goes through the stored-format upgrade (IndexedDB rows, export archives).
    expect(EpisodeSchema.safeParse(upgradeStoredEpisode(old, LEARNERS)).success).toBe(true);
  });
});

describe('forgetting a site', () => {
  it('goes through every registry learner\'s memory and answers how many items they forgot in all', async () => {
    const { createUiHandlers } = await import('../../src/background/ui-handlers.ts');
    const forgotten: string[] = [];
    const episodes = new InMemoryEpisodeStore();
    const handlers = createUiHandlers({
      episodes,
      learnerMemories: [
        { id: 'cer', memory: { forgetSite: async (o: string) => { forgotten.push(`cer ${o}`); return 4; } } },
        { id: 'jitrl', memory: { forgetSite: async (o: string) => { forgotten.push(`jitrl ${o}`); return 7; } } },
        { id: 'example', memory: { forgetSite: async (o: string) => { forgotten.push(`example ${o}`); return 1; } } },
      ],
    } as unknown as Parameters<typeof createUiHandlers>[0]);
    expect(await handlers['memory.forgetSite']({ origin: 'https://shop.test' }, undefined)).toEqual({ deleted: 4 + 7 + 1, episodes: 0, steps: 0, decisions: 0, approvals: 0 });
    expect(forgotten).toEqual(['cer https://shop.test', 'jitrl https://shop.test', 'example https://shop.test']);
  });
});

describe('the example learner\'s memory, with no change outside its registry entry', () => {
  function portsAndDeps() {
    const ports: LearnerPorts = {
      stores: testLearnerStores({ memory: new InMemoryStepRowStore(), experiences: new InMemoryExperienceStore(), learnerData: new InMemoryLearnerDataStore() }),
      settings: () => DEFAULT_SETTINGS,
      model: () => null,
      clock: { now: () => 50 },
      random: seededRandom(0),
    };
    const episodes = new InMemoryEpisodeStore();
    const learnerMemories = REGISTRY.flatMap((d) => (d.memory ? [{ id: d.id, memory: d.memory(ports) }] : []));
    const deps = {
      episodes,
      learnerMemories,
      learning: { learners: () => [], rewards: () => DEFAULT_SETTINGS.rewards, logger: silentLogger },
      now: () => Date.UTC(2026, 10, 23),
      writeImport: inMemoryImportWriter({ ...ports.stores, episodes }, learnerMemories),
      upgradeEpisode: (raw: unknown) => upgradeStoredEpisode(raw, LEARNERS),
    };
    return { ports, deps };
  }

  it('is exported under learners.example, imported through its memory, and forgotten per site', async () => {
    const source = portsAndDeps();
    const learner = buildLearners(source.ports, { registry: REGISTRY, ids: ['example'] })[0]!.learner;
    const episode = { ...EpisodeSchema.parse({
      id: 'e1', origin: 'https://shop.test', task: 't', startUrl: 'https://shop.test/', tabId: null, status: 'success', answer: null, error: null,
      learners: ['example'], attempt: 1, kind: 'live', startedAt: 0, endedAt: 1, steps: [],
    }) };
    await learner.learn!({ episode, rewards: [] });
    await learner.learn!({ episode, rewards: [] });

    const { json, filename } = await exportMemory(source.deps);
    expect(filename).toBe('apprentice-memory-2026-11-23.json');
    const archive = JSON.parse(json) as { learners?: Record<string, unknown> };
    expect(archive.learners).toEqual({
      example: [{ learnerId: 'example', origin: 'https://shop.test', key: 'tally', value: { episodes: 2 }, updatedAt: 50 }],
    });

    const target = portsAndDeps();
    const result = await importMemory(target.deps, json);
    expect(result).toEqual({ transitions: 0, episodes: 0, experiences: 0, learners: { example: { imported: 1, rejected: [] } } });
    const view = exampleData(target.ports);
    expect(await view.get('https://shop.test', 'tally')).toEqual({
      // The import notes where the record came from (the panel shows an imported guide's origin).
      status: 'found', record: { learnerId: 'example', origin: 'https://shop.test', key: 'tally', value: { episodes: 2 }, updatedAt: 50, importedFrom: 'an archive exported 2026-11-23' },
    });

    expect(await forgetSite(target.deps, 'https://shop.test')).toEqual({ deleted: 1, episodes: 0, steps: 0, decisions: 0, approvals: 0 });
    expect(await view.get('https://shop.test', 'tally')).toEqual({ status: 'missing' });
  });

  it('still imports an export written before the registry, and reports a learner it does not have', async () => {
    const { deps } = portsAndDeps();
    const old = JSON.stringify({ format: 'apprentice-memory', version: 1, exportedAt: 1, transitions: [], episodes: [], experiences: [] });
    expect(await importMemory(deps, old)).toEqual({ transitions: 0, episodes: 0, experiences: 0 });
    const fromTheFuture = JSON.stringify({ format: 'apprentice-memory', version: 1, exportedAt: 1, transitions: [], episodes: [], experiences: [], learners: { unknown: [1] } });
    expect(await importMemory(deps, fromTheFuture)).toEqual({
      transitions: 0, episodes: 0, experiences: 0,
      learners: { unknown: { imported: 0, rejected: ['this version of Apprentice has no learner "unknown" that imports memory; its part was skipped'] } },
    });
  });
});
