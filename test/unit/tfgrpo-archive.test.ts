import { describe, expect, it } from 'vitest';
import { createUiHandlers } from '../../src/background/ui-handlers.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import { InMemoryExperienceStore } from '../../src/learners/cer/core/experience-store.ts';
import { inMemoryImportWriter } from '../../src/core/learning/in-memory/in-memory-import.ts';
import { InMemoryLearnerDataStore } from '../../src/core/learning/in-memory/in-memory-learner-data-store.ts';
import { LearnerDataTfgrpoStore } from '../../src/learners/tfgrpo/core/learner-data-tfgrpo-store.ts';
import { InMemoryStepRowStore } from '../../src/core/stores/in-memory-step-rows.ts';
import { experience, ORIGIN } from '../../src/learners/tfgrpo/test/tfgrpo-helpers.ts';

// Export, import and forget go through the learner's generic memory (core/learning/memory-transfer.ts).
function handlersWith(store: LearnerDataTfgrpoStore) {
  const stores = { episodes: new InMemoryEpisodeStore(), memory: new InMemoryStepRowStore(), experiences: new InMemoryExperienceStore(), learnerData: store.data.store };
  return createUiHandlers({
    ...stores,
    learnerMemories: [{ id: 'tfgrpo', memory: store.data.memory() }],
    // One write for every store, the learner's records included (issue 11).
    writeImport: inMemoryImportWriter(stores, []),
    now: () => Date.UTC(2026, 10, 23),
  } as unknown as Parameters<typeof createUiHandlers>[0]);
}

const freshStore = () => new LearnerDataTfgrpoStore(new InMemoryLearnerDataStore(), 'tfgrpo', { now: () => 1 });

describe('Training-Free GRPO in export and import', () => {
  it('exports every site\'s library and imports it into an empty profile', async () => {
    const from = freshStore();
    const lib = [experience('x-a', 'Sort first: sort by price.'), experience('x-b', 'Header: the cart is in the header.')];
    await from.saveLibrary(ORIGIN, lib, null);
    const { json } = await handlersWith(from)['memory.export']({}, undefined);
    const part = JSON.parse(json).learners.tfgrpo as { learnerId: string; origin: string }[];
    expect(part.length).toBeGreaterThan(0);
    expect(part.every((r) => r.learnerId === 'tfgrpo' && r.origin === ORIGIN)).toBe(true);

    const to = freshStore();
    const result = await handlersWith(to)['memory.import']({ json }, undefined);
    expect(result).toEqual({ transitions: 0, episodes: 0, experiences: 0, learners: { tfgrpo: { imported: part.length, rejected: [] } } });
    expect(await to.library(ORIGIN)).toEqual(lib);
  });

  it('an older export without learner data still imports; a bad record is refused and said, the library unchanged', async () => {
    const store = freshStore();
    const old = { format: 'apprentice-memory', version: 1, exportedAt: 0, transitions: [], episodes: [], experiences: [] };
    expect(await handlersWith(store)['memory.import']({ json: JSON.stringify(old) }, undefined)).toEqual({ transitions: 0, episodes: 0, experiences: 0 });
    const bad = { ...old, learners: { tfgrpo: [{ learnerId: 'tfgrpo', origin: ORIGIN, key: 'library', value: { nonsense: true }, updatedAt: 1 }] } };
    const result = await handlersWith(store)['memory.import']({ json: JSON.stringify(bad) }, undefined);
    expect(result.learners?.['tfgrpo']?.imported).toBe(0);
    expect(result.learners?.['tfgrpo']?.rejected).toHaveLength(1);
    expect(await store.allExperiences()).toEqual([]);
  });
});
