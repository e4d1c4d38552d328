/** Every registry learner that declares panel actions answers each of them, and nothing else. */
import { describe, expect, it } from 'vitest';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import { InMemoryExperienceStore } from '../../src/learners/cer/core/experience-store.ts';
import { runLearnerAction } from '../../src/core/learning/learner-actions.ts';
import { actionableLearners } from '../../src/core/learning/learner-definition.ts';
import { InMemoryLearnerDataStore } from '../../src/core/learning/in-memory/in-memory-learner-data-store.ts';
import { buildLearners, REGISTERED_LEARNERS } from '../../src/core/learning/registry/registry-factories.ts';
import { InMemoryStepRowStore } from '../../src/core/stores/in-memory-step-rows.ts';
import { seededRandom } from '../../src/core/random.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import { testLearnerStores } from '../support/learner-stores.ts';

const ports = () => ({
  stores: { ...testLearnerStores({ memory: new InMemoryStepRowStore(), experiences: new InMemoryExperienceStore(), learnerData: new InMemoryLearnerDataStore() }), episodes: new InMemoryEpisodeStore() },
  settings: () => DEFAULT_SETTINGS, model: () => null, clock: { now: () => 5 }, random: seededRandom(1),
});

describe('learner actions', () => {
  it('each declared action has a handler and each handler a declared action', () => {
    const p = ports();
    const actionable = actionableLearners(buildLearners(p), p);
    expect(actionable.map((a) => a.id)).toEqual(REGISTERED_LEARNERS.filter((d) => d.actions).map((d) => d.id));
    for (const a of actionable) expect(Object.keys(a.handlers).sort()).toEqual(Object.keys(a.actions).sort());
  });

  it('validates the payload before the handler and the reply after it', async () => {
    const p = ports();
    const actionable = actionableLearners(buildLearners(p), p);
    expect(await runLearnerAction(actionable, 'cer', 'list', { origin: 'https://a.test' })).toEqual([]);
    await expect(runLearnerAction(actionable, 'cer', 'list', { origin: 3 })).rejects.toThrow('CER list: origin: Invalid input: expected string, received number');
    await expect(runLearnerAction(actionable, 'nobody', 'list', {})).rejects.toMatchObject({ name: 'LearnerActionError' });
    await expect(runLearnerAction(actionable, 'cer', 'toString', {})).rejects.toThrow('CER has no action "toString"');
    const lying = [{ id: 'x', label: 'X', actions: actionable[0]!.actions, handlers: { list: async () => [{ not: 'an entry' }] } }];
    await expect(runLearnerAction(lying, 'x', 'list', { origin: 'o' })).rejects.toMatchObject({ name: 'LearnerActionError' });
    await expect(runLearnerAction(lying, 'x', 'list', { origin: 'o' })).rejects.toThrow("X list replied with an invalid value: 0.kind: Invalid discriminator value. Expected 'dynamics' | 'skill'");
  });
});
