import { describe, expect, it } from 'vitest';
import { createUiHandlers } from '../../src/background/ui-handlers.ts';
import { InMemoryEpisodeStore } from '../../src/core/agent/episode-store.ts';
import { InMemoryExperienceStore } from '../../src/core/learning/cer/experience-store.ts';
import { TfgrpoLearner } from '../../src/core/learning/tfgrpo/tfgrpo-learner.ts';
import { InMemoryTfgrpoStore } from '../../src/core/learning/tfgrpo/tfgrpo-store.ts';
import { InMemoryMemoryStore } from '../../src/core/memory/in-memory-store.ts';
import { experience, ORIGIN, TFGRPO_ON } from './tfgrpo-helpers.ts';

function handlersWith(store: InMemoryTfgrpoStore) {
  const tfgrpo = new TfgrpoLearner({ store, settings: () => TFGRPO_ON, model: null, clock: { now: () => 1 } });
  return createUiHandlers({
    episodes: new InMemoryEpisodeStore(),
    memory: new InMemoryMemoryStore(),
    experiences: new InMemoryExperienceStore(),
    tfgrpo,
    now: () => Date.UTC(2026, 10, 23),
  } as unknown as Parameters<typeof createUiHandlers>[0]);
}

describe('Training-Free GRPO in export and import', () => {
  it('exports every site\'s library and imports it into an empty profile', async () => {
    const from = new InMemoryTfgrpoStore();
    const lib = [experience('x-a', 'Sort first: sort by price.'), experience('x-b', 'Header: the cart is in the header.')];
    await from.saveLibrary(ORIGIN, lib, null);
    const { json } = await handlersWith(from)['memory.export']({}, undefined);
    expect(JSON.parse(json).learners).toEqual({ tfgrpo: lib });

    const to = new InMemoryTfgrpoStore();
    await to.saveLibrary(ORIGIN, [experience('x-c', 'Sort first: sort by price!')], null);
    const result = await handlersWith(to)['memory.import']({ json }, undefined);
    // x-a says what x-c already says: skipped; x-b is new.
    expect(result).toEqual({ transitions: 0, episodes: 0, experiences: 1 });
    expect((await to.library(ORIGIN)).map((e) => e.id)).toEqual(['x-c', 'x-b']);
  });

  it('an older export without learner data still imports; a bad experience changes nothing and says which', async () => {
    const store = new InMemoryTfgrpoStore();
    const old = { format: 'apprentice-memory', version: 1, exportedAt: 0, transitions: [], episodes: [], experiences: [] };
    expect(await handlersWith(store)['memory.import']({ json: JSON.stringify(old) }, undefined)).toEqual({ transitions: 0, episodes: 0, experiences: 0 });
    const bad = { ...old, learners: { tfgrpo: [experience('x-a', 'Fine: fine.'), { id: 'x-b', text: '' }] } };
    await expect(handlersWith(store)['memory.import']({ json: JSON.stringify(bad) }, undefined)).rejects.toThrow(/^Training-Free GRPO experience #1 is invalid/);
    expect(await store.allExperiences()).toEqual([]);
  });
});
