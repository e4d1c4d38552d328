import { describe, expect, it } from 'vitest';
import { createUiHandlers } from '../../src/background/ui-handlers.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import { InMemoryExperienceStore } from '../../src/learners/cer/core/experience-store.ts';
import { lineageDataOn, lineageStoreOn } from '../../src/learners/evotest/core/lineage-store.ts';
import { inMemoryImportWriter } from '../../src/core/learning/in-memory/in-memory-import.ts';
import { InMemoryLearnerDataStore } from '../../src/core/learning/in-memory/in-memory-learner-data-store.ts';
import { addChildren, newLineage } from '../../src/learners/evotest/core/lineage.ts';
import { InMemoryStepRowStore } from '../../src/core/stores/in-memory-step-rows.ts';
import { SEED } from '../../src/learners/evotest/test/evotest-helpers.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import { seededRandom } from '../../src/core/random.ts';
import { buildLearners } from '../../src/core/learning/registry/registry-factories.ts';
import { actionableLearners } from '../../src/core/learning/learner-definition.ts';
import { testLearnerStores } from '../support/learner-stores.ts';

function handlers(data = new InMemoryLearnerDataStore()) {
  const lineages = lineageStoreOn(data);
  const stores = { episodes: new InMemoryEpisodeStore(), ...testLearnerStores({ memory: new InMemoryStepRowStore(), experiences: new InMemoryExperienceStore(), learnerData: data }) };
  const ports = { stores, settings: () => DEFAULT_SETTINGS, model: () => null, clock: { now: () => Date.UTC(2026, 10, 23) }, random: seededRandom(1) };
  const h = createUiHandlers({
    ...stores,
    writeImport: inMemoryImportWriter(stores, []),
    learnerMemories: [{ id: 'evotest', memory: lineageDataOn(data).memory() }],
    learnerActions: actionableLearners(buildLearners(ports, { ids: ['evotest'] }), ports),
    now: () => Date.UTC(2026, 10, 23),
  } as unknown as Parameters<typeof createUiHandlers>[0]);
  const act = (action: string, payload: unknown) => h['learner.action']({ learnerId: 'evotest', action, payload }, undefined) as Promise<{ pinnedId?: string | null }>;
  return { h, lineages, act };
}

const lineage = () => addChildren(newLineage({ origin: 'https://a.test', template: 'open order …', seed: SEED, now: 1 }), 'c0', [{ configuration: { ...SEED, guidance: 'g' }, source: 'offline', rationale: 'r' }], 2).lineage;

describe('EvoTest in the background handlers', () => {
  it('lists, pins, resets and forgets lineages', async () => {
    const { h, lineages, act } = handlers();
    const l = lineage();
    await lineages.put(l);
    expect(await act('lineages', { origin: 'https://a.test' })).toEqual({ mode: 'offline', lineages: [l] });
    expect((await act('pin', { key: l.key, configurationId: 'c1' })).pinnedId).toBe('c1');
    expect((await lineages.get(l.key))!.pinnedId).toBe('c1');
    await expect(act('pin', { key: l.key, configurationId: 'c9' })).rejects.toMatchObject({ name: 'EvotestLineageError' });
    await expect(act('pin', { key: 'nope', configurationId: null })).rejects.toThrow(/no EvoTest lineage nope/);
    expect((await act('pin', { key: l.key, configurationId: null })).pinnedId).toBeNull();
    expect(await act('reset', { key: l.key })).toEqual({ deleted: true });
    // A payload its schema refuses, or an action EvoTest does not have, is a typed error.
    await expect(act('pin', { key: l.key })).rejects.toMatchObject({ name: 'LearnerActionError' });
    await expect(act('nuke', {})).rejects.toThrow('EvoTest has no action "nuke"');
    await lineages.put(l);
    await h['memory.forgetSite']({ origin: 'https://a.test' }, undefined);
    expect(await lineages.list()).toEqual([]);
  });

  it('exports lineages through the generic learner memory, imports them into a fresh browser, and rejects an invalid one', async () => {
    const source = handlers();
    const l = lineage();
    await source.lineages.put(l);
    const { json } = await source.h['memory.export']({}, undefined);
    const exported = JSON.parse(json).learners.evotest as { value: unknown }[];
    expect(exported.map((r) => r.value)).toEqual([l]);

    const target = handlers();
    expect(await target.h['memory.import']({ json }, undefined)).toEqual({ transitions: 0, episodes: 0, experiences: 0, learners: { evotest: { imported: 1, rejected: [] } } });
    // The imported lineage says where it came from (the export's date).
    expect(await target.lineages.get(l.key)).toEqual({ ...l, importedFrom: 'an archive exported 2026-11-23' });

    const bad = JSON.parse(json);
    bad.learners.evotest[0].value.nodes[0].configuration.stateAbstraction.extractor = 'def f(): pass';
    const fresh = handlers();
    const refused = await fresh.h['memory.import']({ json: JSON.stringify(bad) }, undefined);
    expect(refused.learners?.['evotest']?.imported).toBe(0);
    expect(refused.learners?.['evotest']?.rejected).toHaveLength(1);
    expect(await fresh.lineages.list()).toEqual([]);

    // An export from before EvoTest (no "learners") still imports.
    const old = JSON.parse(json);
    delete old.learners;
    expect(await handlers().h['memory.import']({ json: JSON.stringify(old) }, undefined)).toEqual({ transitions: 0, episodes: 0, experiences: 0 });
  });
});
