/**
 * Declared tunables: EvoTest evolves the numbers the registry's definitions
 * declare (`tunables`), whatever learner declares them, and hands them back on
 * the request (`tuned`); it names no other learner's knob.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { evotestFactoryFor } from '../../src/learners/evotest/factory.ts';
import { evotestDefinition } from '../../src/learners/evotest/definition.ts';
import { checkConfiguration } from '../../src/learners/evotest/core/configuration.ts';
import { evolveOffline } from '../../src/learners/evotest/core/offline-evolver.ts';
import { nudged, registryTunables, type Tunables } from '../../src/core/learning/tunables.ts';
import type { LearnerDefinition, LearnerPorts } from '../../src/core/learning/learner-definition.ts';
import { composeRequest, type RequestShape, type StepContext } from '../../src/core/learning/learner.ts';
import { inMemoryLearnerStores } from '../../src/core/learning/registry/registry-factories.ts';
import { seededRandom } from '../../src/core/random.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import { digest, SEED, step } from '../../src/learners/evotest/test/evotest-helpers.ts';

/** A learner this build does not have, declaring one tunable. */
const depthTunables: Tunables = {
  depth: { name: 'd', schema: z.number().min(1).max(9).describe('search depth'), read: () => 3, explore: { add: 2, max: 6 } },
};
const other: LearnerDefinition = {
  id: 'other', label: 'Other', settings: { schema: z.object({}), defaults: {}, read: () => ({}) }, enabled: () => true,
  needsModel: { level: 'no', description: '' }, keepsMemory: false, tunables: depthTunables,
};

describe('declared tunables', () => {
  it('EvoTest seeds a lineage with the registry\'s tunables and hands them on the request', async () => {
    const ports: LearnerPorts = { stores: inMemoryLearnerStores(), settings: () => DEFAULT_SETTINGS, model: () => null, clock: { now: () => 7 }, random: seededRandom(0) };
    const learner = evotestFactoryFor([other, evotestDefinition]).create(ports);
    const plan = await learner.beginEpisode!({ episodeId: 'e1', task: 'Find order 12', origin: 'https://shop.test', startUrl: 'https://shop.test/', attempt: 1, kind: 'live' });
    expect((plan as { configuration: { hyperparameters: Record<string, number> } }).configuration.hyperparameters).toEqual({
      temperature: DEFAULT_SETTINGS.policy.temperature, numCandidates: DEFAULT_SETTINGS.policy.numCandidates, depth: 3, maxSteps: DEFAULT_SETTINGS.agent.maxSteps,
    });
    const context = { episodeId: 'e1', stepIndex: 0, task: 'Find order 12', origin: 'https://shop.test', url: 'https://shop.test/', regUrl: '/', effectiveState: [], plan,
      observation: { url: 'https://shop.test/', title: 'Shop', nodes: [], focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [], scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1 } } as StepContext;
    const base: RequestShape = { guide: null, sections: [], temperature: 0.8, numCandidates: 3, tuned: {} };
    const change = await learner.shapeRequest!(context, base);
    expect(change.tuned).toEqual({ depth: 3 });
    expect(composeRequest(base, [{ learnerId: 'evotest', change }]).tuned).toEqual({ depth: 3 });
  });

  it('a key two learners declare is refused; without tunables EvoTest evolves its own numbers only', () => {
    expect(() => registryTunables([{ id: 'a', tunables: depthTunables }, { id: 'b', tunables: depthTunables }])).toThrow('tunable "depth" is declared by a and b');
    expect(Object.keys(registryTunables([other, evotestDefinition]))).toEqual(['depth']);
  });

  it('an evolver may set a declared tunable within its range, and nothing undeclared', () => {
    const seed = { ...SEED, hyperparameters: { temperature: 0.8, numCandidates: 3, depth: 3, maxSteps: 15 } };
    expect(checkConfiguration(seed, depthTunables).ok).toBe(true);
    expect(checkConfiguration({ ...seed, hyperparameters: { ...seed.hyperparameters, depth: 12 } }, depthTunables).ok).toBe(false);
    expect(checkConfiguration(seed, {}).ok).toBe(false);
  });

  it('the offline evolver moves a tunable by its declared nudge: explore after a failure (3 + 2 = 5, then at most 6)', () => {
    const seed = { ...SEED, hyperparameters: { temperature: 0.8, numCandidates: 3, depth: 3, maxSteps: 15 } };
    const failed = digest([step('click(<button "Next">)'), step('click(<link "Orders">)')], { outcome: 'failure', score: 0 });
    const widened = evolveOffline(seed, failed, 3, depthTunables).find((c) => c.rationale.startsWith('widen the search'));
    expect(widened?.configuration.hyperparameters).toEqual({ temperature: 0.8, numCandidates: 4, depth: 5, maxSteps: 15 });
    expect(widened?.rationale).toBe('widen the search after a failure: failed: one more candidate and more exploration (d + 2)');
    expect(nudged(5, { add: 2, max: 6 })).toBe(6);
    expect(nudged(0.1, { times: 2, min: 0.05, max: 0.3 })).toBe(0.2);
  });
});
