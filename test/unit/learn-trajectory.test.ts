/**
 * Issue 23, "one learn(trajectory)": a live episode, a demonstration and an
 * imported trajectory file reach the learners by the same call, in registry
 * order, enabled learners only, exactly once each; take-over steps the person
 * marked "don't learn from this" reach none. A test registry of counting fake
 * learners stands in for the five.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { closeEpisode, learnStage } from '../../src/core/agent/episode-lifecycle.ts';
import { DemonstrationRecorder, type DemonstrationPage } from '../../src/core/agent/demonstration-recorder.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import { EpisodeSchema, recordedStepRecord, type Episode } from '../../src/core/episode/episode.ts';
import { InMemoryExperienceStore } from '../../src/learners/cer/core/experience-store.ts';
import { inMemoryImportWriter } from '../../src/core/learning/in-memory/in-memory-import.ts';
import { InMemoryLearnerDataStore } from '../../src/core/learning/in-memory/in-memory-learner-data-store.ts';
import { learnFromTrajectory } from '../../src/core/learning/learn-trajectory.ts';
import { isLearnable, trajectoryOf } from '../../src/core/episode/trajectory.ts';
import type { LearnerPorts, RegisteredLearner } from '../../src/core/learning/learner-definition.ts';
import type { Learner, Trajectory } from '../../src/core/learning/learner.ts';
import { importMemory, type MemoryTransferDeps } from '../../src/core/learning/memory-transfer.ts';
import { buildLearners, enabledLearners } from '../../src/core/learning/registry/registry-factories.ts';
import { InMemoryStepRowStore } from '../../src/core/stores/in-memory-step-rows.ts';
import { silentLogger } from '../../src/core/ports.ts';
import { seededRandom } from '../../src/core/random.ts';
import { DEFAULT_SETTINGS, type Settings } from '../../src/core/settings.ts';
import { testLearnerStores } from '../support/learner-stores.ts';
import { LEARNERS } from '../../src/core/learning/registry/registry.ts';
import { upgradeStoredEpisode } from '../../src/core/learning/stored-step-upgrade.ts';

const ORIGIN = 'http://shop.test';

/** Every learn call of the test registry: which learner, and the trajectory it got. */
type Call = { id: string; trajectory: Trajectory };

/** A registry of counting learners; `off` is switched off in the settings. */
function countingRegistry(calls: Call[], options: { failing?: string } = {}): RegisteredLearner[] {
  const entry = (id: string): RegisteredLearner => ({
    id,
    label: id,
    settings: { schema: z.strictObject({ enabled: z.boolean() }), defaults: { enabled: true }, read: (s) => s.learners?.[id] ?? { enabled: true } },
    enabled: (s) => (s.learners?.[id] as { enabled?: boolean } | undefined)?.enabled !== false,
    needsModel: { level: 'no', description: 'counts' },
    keepsMemory: false,
    create: (): Learner => ({
      id,
      async learn(trajectory) {
        calls.push({ id, trajectory });
        if (id === options.failing) throw new Error('disk full');
        return { notes: [`saw ${trajectory.episode.steps.length} steps`], learned: 1 };
      },
    }),
  });
  return [entry('first'), entry('off'), entry('second')];
}

function setUp(options: { failing?: string } = {}) {
  const calls: Call[] = [];
  const settings: Settings = { ...DEFAULT_SETTINGS, learners: { ...(DEFAULT_SETTINGS.learners ?? {}), off: { enabled: false } } };
  const ports: LearnerPorts = {
    stores: testLearnerStores({ memory: new InMemoryStepRowStore(), experiences: new InMemoryExperienceStore(), learnerData: new InMemoryLearnerDataStore() }),
    settings: () => settings, model: () => null, clock: { now: () => 5000 }, random: seededRandom(0),
  };
  const built = buildLearners(ports, { registry: countingRegistry(calls, options) });
  return { calls, settings, ports, learners: () => enabledLearners(built, settings) };
}

const step = (index: number, semantic: string, title: string, extra: Partial<Episode['steps'][number]> = {}) => ({
  ...recordedStepRecord({ index, url: `${ORIGIN}/p${index}`, regUrl: `/p${index}`, semantic, decision: 'approved', result: { ok: true, navigated: false }, startedAt: 1000 + index, pageTitle: title }),
  ...extra,
});

const liveEpisode = (steps: Episode['steps']): Episode => EpisodeSchema.parse({
  id: 'live-1', origin: ORIGIN, task: 'Buy a mug', startUrl: `${ORIGIN}/`, tabId: 3, status: 'running', steps, answer: null, error: null,
  learners: ['first', 'second'], attempt: 1, kind: 'live', startedAt: 1000, endedAt: null,
});

describe('one learn(trajectory) for every source', () => {
  it('a demonstration reaches every enabled learner exactly once, in registry order, as a live episode does', async () => {
    const { calls, learners, settings } = setUp();
    const episodes = new InMemoryEpisodeStore();
    const page: DemonstrationPage = { setRecording: async () => undefined, tabUrl: async () => `${ORIGIN}/p0` };
    let ids = 0;
    const recorder = new DemonstrationRecorder({
      episodes, page, learners, settings: () => settings, clock: { now: () => 2000 }, logger: silentLogger, newId: () => `demo-${++ids}`,
    });
    await recorder.start({ tabId: 3, task: 'Buy a mug' });
    await recorder.record(3, { action: 'click(<link "Mug">)', url: `${ORIGIN}/p0`, title: 'Shop' });
    await recorder.record(3, { action: 'click(<button "Add to cart">)', url: `${ORIGIN}/p1`, title: 'Mug — Shop' });
    await recorder.stop('demo-1', 'success');

    expect(calls.map((c) => c.id)).toEqual(['first', 'second']);
    const demo = calls[0]!.trajectory;
    expect(calls[1]!.trajectory).toBe(demo);
    expect(demo.episode.kind).toBe('demonstration');
    expect(demo.episode.steps.map((s) => s.chosen?.semantic)).toEqual(['click(<link "Mug">)', 'click(<button "Add to cart">)']);
    // Person rewards for a success (DEFAULT_SETTINGS.rewards): approve 0.2 on each step, plus the outcome 1 on the last and
    // half of it on the one before (rewards.ts, uniform shares): 0.2 + 0.5 = 0.7 and 0.2 + 1 = 1.2, as stored on the steps.
    expect(demo.rewards).toEqual([0.7, 1.2]);
    expect(demo.episode.steps.map((s) => s.reward)).toEqual([0.7, 1.2]);
    expect(demo.pageTitles).toEqual(['Shop', 'Mug — Shop']);

    // The live episode's close goes through the same call with the same shape.
    calls.length = 0;
    const { trajectory } = closeEpisode(liveEpisode([step(0, 'click(<link "Mug">)', 'Shop')]), 'success', {
      evaluatorScores: null, notes: [], rewards: settings.rewards, now: 3000,
    });
    const notes = await learnStage(learners(), trajectory, silentLogger);
    expect(calls.map((c) => c.id)).toEqual(['first', 'second']);
    expect(notes).toEqual(['first: saw 1 steps', 'second: saw 1 steps']);
    expect(Object.keys(calls[0]!.trajectory).sort()).toEqual(['episode', 'rewardSource', 'rewards']);
    expect(Object.keys(demo).sort()).toEqual(['episode', 'pageTitles', 'rewardSource', 'rewards']);
  });

  it('steps marked "don\'t learn from this" reach no learner; the others keep their rewards and titles', async () => {
    const { calls, learners, settings } = setUp();
    const steps = [
      step(0, 'click(<link "Mug">)', 'Shop'),
      step(1, 'fill(<textbox "Code">, "1234")', 'Verify', { takeOver: { learn: false } }),
      step(2, 'click(<button "Add to cart">)', 'Mug', { takeOver: { learn: true } }),
    ];
    const { closed, trajectory } = closeEpisode(liveEpisode(steps), 'success', { evaluatorScores: null, notes: [], rewards: settings.rewards, now: 3000 });
    await learnStage(learners(), trajectory, silentLogger);
    expect(calls).toHaveLength(2);
    for (const { trajectory: t } of calls) expect(t.episode.steps.map((s) => s.index)).toEqual([0, 2]);
    expect(closed.steps).toHaveLength(3); // kept in the history

    const rewarded = { ...closed, steps: closed.steps.map((s, i) => ({ ...s, reward: [0.5, 0.25, 1][i]! })) };
    expect(trajectoryOf(rewarded, { pageTitles: ['Shop', 'Verify', 'Mug'], observations: ['a', 'b', 'c'] })).toMatchObject({
      rewards: [0.5, 1], pageTitles: ['Shop', 'Mug'], observations: ['a', 'c'],
    });
    expect(isLearnable(steps[1]!)).toBe(false);
    expect(isLearnable({ ...steps[0]!, chosen: null, rejected: [] })).toBe(false);
    expect(isLearnable({ ...steps[0]!, chosen: null, rejected: ['click(<button "No">)'] })).toBe(true);
  });

  it('an imported trajectory file reaches the enabled learners once per trajectory, with the file\'s titles; the count is what they learned', async () => {
    const { calls, learners, settings, ports } = setUp();
    const episodes = new InMemoryEpisodeStore();
    const deps: MemoryTransferDeps = {
      episodes, learnerMemories: [],
      learning: { learners, rewards: () => settings.rewards, logger: silentLogger },
      writeImport: inMemoryImportWriter({ ...ports.stores, episodes }, []), now: () => 9000,
      upgradeEpisode: (raw: unknown) => upgradeStoredEpisode(raw, LEARNERS),
    };
    const file = JSON.stringify({ trajectories: [
      { task: 'Buy a mug', startUrl: `${ORIGIN}/`, outcome: 'success', steps: [
        { url: `${ORIGIN}/`, action: 'click(<link "Mug">)', title: 'Shop', observation: 'a list of mugs' },
        { url: `${ORIGIN}/mug`, action: 'click(<button "Add to cart">)', title: 'Mug' },
      ] },
      { task: 'Buy a pen', startUrl: `${ORIGIN}/`, outcome: 'failure', steps: [{ url: `${ORIGIN}/`, action: 'click(<link "Pen">)' }] },
    ] });
    expect(await importMemory(deps, file)).toEqual({ transitions: 0, episodes: 2, experiences: 4 });
    expect(calls.map((c) => `${c.id} ${c.trajectory.episode.task}`)).toEqual(['first Buy a mug', 'second Buy a mug', 'first Buy a pen', 'second Buy a pen']);
    expect(calls[0]!.trajectory).toMatchObject({ pageTitles: ['Shop', 'Mug'], observations: ['a list of mugs', null], rewardSource: 'person' });
    expect(calls[2]!.trajectory.pageTitles).toEqual([null]);
    expect((await episodes.all()).map((e) => e.kind)).toEqual(['imported', 'imported']);
  });

  it('a learner that fails is a note; the next one still learns', async () => {
    const { calls, learners } = setUp({ failing: 'first' });
    const trajectory = trajectoryOf(liveEpisode([step(0, 'click(<link "Mug">)', 'Shop')]));
    const outcome = await learnFromTrajectory(learners(), trajectory, { logger: silentLogger, source: 'demonstration' });
    expect(calls.map((c) => c.id)).toEqual(['first', 'second']);
    expect(outcome).toEqual({ notes: ['first: learning from this demonstration failed (disk full)', 'second: saw 1 steps'], learned: 1 });
  });
});
