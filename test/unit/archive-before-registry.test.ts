/**
 * Issue 23, "their stores behind memory": an export written before JitRL and
 * CER were reached through their registry memory (test/fixtures/archives/
 * export-before-registry-memory.json, written by that code from the three
 * fixture trajectories: 12 transitions, 3 episodes, 7 CER entries, 3
 * Training-Free GRPO records) imports through the registry's memories alone,
 * with exact counts, and exports again with nothing lost or changed.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import { InMemoryExperienceStore } from '../../src/learners/cer/core/experience-store.ts';
import { inMemoryImportWriter } from '../../src/core/learning/in-memory/in-memory-import.ts';
import { InMemoryLearnerDataStore } from '../../src/core/learning/in-memory/in-memory-learner-data-store.ts';
import type { LearnerPorts } from '../../src/core/learning/learner-definition.ts';
import { exportMemory, forgetSite, importMemory, type MemoryTransferDeps } from '../../src/core/learning/memory-transfer.ts';
import { REGISTERED_LEARNERS } from '../../src/core/learning/registry/registry-factories.ts';
import { InMemoryStepRowStore } from '../../src/core/stores/in-memory-step-rows.ts';
import { silentLogger } from '../../src/core/ports.ts';
import { seededRandom } from '../../src/core/random.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import { testLearnerStores } from '../support/learner-stores.ts';
import { LEARNERS } from '../../src/core/learning/registry/registry.ts';
import { upgradeStoredEpisode } from '../../src/core/learning/stored-step-upgrade.ts';

const FIXTURE = readFileSync(new URL('../fixtures/archives/export-before-registry-memory.json', import.meta.url), 'utf8');
const SITE = 'http://shop.fixture.test';

interface Archive {
  transitions: { id: string; origin: string }[];
  episodes: { id: string }[];
  experiences: { id: string; origin: string }[];
  learners?: Record<string, unknown[]>;
}

function profile() {
  const stores = testLearnerStores({ memory: new InMemoryStepRowStore(), experiences: new InMemoryExperienceStore(), learnerData: new InMemoryLearnerDataStore() });
  const episodes = new InMemoryEpisodeStore();
  const ports: LearnerPorts = { stores, settings: () => DEFAULT_SETTINGS, model: () => null, clock: { now: () => 1 }, random: seededRandom(0) };
  // Only the registry's memories: nothing here names a store.
  const learnerMemories = REGISTERED_LEARNERS.flatMap((d) => (d.memory ? [{ id: d.id, memory: d.memory(ports) }] : []));
  const deps: MemoryTransferDeps = {
    episodes, learnerMemories,
    learning: { learners: () => [], rewards: () => DEFAULT_SETTINGS.rewards, logger: silentLogger },
    writeImport: inMemoryImportWriter({ episodes, learnerData: stores.learnerData }, learnerMemories),
    now: () => Date.UTC(2026, 10, 25),
    upgradeEpisode: (raw: unknown) => upgradeStoredEpisode(raw, LEARNERS),
  };
  return { stores, deps };
}

describe('an export written before the registry memories', () => {
  it('imports with exact counts and exports again with every row unchanged', async () => {
    const old = JSON.parse(FIXTURE) as Archive;
    const { stores, deps } = profile();
    expect(await importMemory(deps, FIXTURE)).toEqual({
      transitions: 12, episodes: 3, experiences: 7, learners: { tfgrpo: { imported: 3, rejected: [] } },
    });
    expect([await stores.memory.count(), (await stores.experiences.all()).length, (await stores.learnerData.list('tfgrpo')).length]).toEqual([12, 7, 3]);

    const again = JSON.parse((await exportMemory(deps)).json) as Archive;
    const byId = <T extends { id: string }>(rows: T[]) => [...rows].sort((a, b) => a.id.localeCompare(b.id));
    expect(byId(again.transitions)).toEqual(byId(old.transitions));
    expect(byId(again.experiences)).toEqual(byId(old.experiences));
    expect(again.learners).toEqual(old.learners);
    expect(again.episodes.map((e) => e.id).sort()).toEqual(old.episodes.map((e) => e.id).sort());
  });

  it('is forgotten per site through the same memories: every learner\'s rows go', async () => {
    const { stores, deps } = profile();
    await importMemory(deps, FIXTURE);
    expect(await forgetSite(deps, SITE)).toMatchObject({ deleted: 12 + 7 + 3 });
    expect([await stores.memory.count(), (await stores.experiences.all()).length, (await stores.learnerData.list('tfgrpo')).length]).toEqual([0, 0, 0]);
  });

  it('refuses the whole file when one CER row is invalid, as before, and writes nothing', async () => {
    const bad = JSON.parse(FIXTURE) as Archive & { experiences: Record<string, unknown>[] };
    bad.experiences[6] = { ...bad.experiences[6]!, provenance: 'lost' };
    const { stores, deps } = profile();
    await expect(importMemory(deps, JSON.stringify(bad))).rejects.toThrow(/^experience #6 is invalid: /);
    expect([await stores.memory.count(), (await stores.experiences.all()).length]).toEqual([0, 0]);
  });

  it('refuses rows that no learner of this build keeps, instead of dropping them', async () => {
    const { deps } = profile();
    const withoutCer = { ...deps, learnerMemories: deps.learnerMemories.filter((m) => m.memory.ownStore?.name !== 'experiences') };
    await expect(importMemory(withoutCer, FIXTURE)).rejects.toThrow('the file has 7 "experiences" rows, but no learner of this version keeps them; nothing was imported');
  });
});
