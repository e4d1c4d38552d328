/**
 * Issue 11 item 7: an import validates everything, then writes every store —
 * transitions, episodes, experiences and the registry learners' learnerData
 * rows — in one IndexedDB transaction. A write failing at any position
 * (including inside the learners' rows) leaves every store as it was.
 * The in-memory writer keeps the same promise.
 */
import { silentLogger } from '../../src/core/ports.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { writeImportAtomically } from '../../src/adapters/idb/idb-archive-import.ts';
import { IdbEpisodeStore } from '../../src/adapters/idb/idb-episode-store.ts';
import { IdbSiteRows } from '../../src/adapters/idb/idb-site-rows.ts';
import { experienceStoreOn } from '../../src/learners/cer/core/experience-store.ts';
import { IdbLearnerDataStore } from '../../src/adapters/idb/idb-learner-data-store.ts';
import { IdbStepRowStore } from '../../src/adapters/idb/idb-step-row-store.ts';
import { openApprenticeDb, type ApprenticeDb } from '../../src/adapters/idb/open-database.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import { EpisodeSchema, type Episode } from '../../src/core/episode/episode.ts';
import { InMemoryExperienceStore } from '../../src/learners/cer/core/experience-store.ts';
import type { ExperienceEntry } from '../../src/learners/cer/core/experience.ts';
import { inMemoryImportWriter } from '../../src/core/learning/in-memory/in-memory-import.ts';
import { experiencesMemory } from '../../src/learners/cer/core/memory.ts';
import { transitionsMemory } from '../../src/learners/jitrl/core/memory.ts';
import { InMemoryLearnerDataStore } from '../../src/core/learning/in-memory/in-memory-learner-data-store.ts';
import type { LearnerDataRecord, LearnerDataStore } from '../../src/core/learning/learner-data-store.ts';
import { LearnerData } from '../../src/core/learning/learner-data.ts';
import { importMemory, type ImportRows, type MemoryTransferDeps } from '../../src/core/learning/memory-transfer.ts';
import { InMemoryStepRowStore } from '../../src/core/stores/in-memory-step-rows.ts';
import type { StepRow } from '../../src/core/stores/step-rows.ts';
import { LEARNERS } from '../../src/core/learning/registry/registry.ts';
import { upgradeStoredEpisode } from '../../src/core/learning/stored-step-upgrade.ts';

const ORIGIN = 'https://shop.example';

const transition = (episodeId: string, i: number, action = `click(<button "B${i}">)`): StepRow => ({
  id: `${episodeId}:${i}`, origin: ORIGIN, regUrl: '/p/{id}', effectiveState: [], stateTokens: [], task: 'buy', taskTokens: ['buy'],
  action, reward: 1, rewardSource: 'person', futureRewards: [1], episodeId, stepIndex: i, createdAt: 1000 + i, updatedAt: 2000,
});
const episode = (id: string, task = 'buy'): Episode => EpisodeSchema.parse({
  id, origin: ORIGIN, task, startUrl: `${ORIGIN}/`, tabId: null, status: 'success', steps: [], answer: null, error: null,
  learners: [], attempt: 1, kind: 'live', startedAt: 1, endedAt: 2,
});
const dynamics = (id: string, pageName: string): ExperienceEntry => ({
  id, origin: ORIGIN, kind: 'dynamics', pageName, description: 'a product page', usages: ['buy'], regUrl: '/p/{id}', exampleUrl: `${ORIGIN}/p/1`,
  provenance: { episodeIds: ['e1'], createdAt: 1, updatedAt: 1, retrieved: 0, retrievedThenSucceeded: 0, source: 'live' },
});
const record = (learnerId: string, key: string, visits: number): LearnerDataRecord => ({ learnerId, origin: ORIGIN, key, value: { visits }, updatedAt: 5 });

const ValueSchema = z.strictObject({ visits: z.number().int() });

/** An archive over all four stores: e1's transitions replace stored ones, one learner record replaces a stored one. */
const archiveJson = () => JSON.stringify({
  format: 'apprentice-memory', version: 1, exportedAt: 9,
  transitions: [transition('e1', 0, 'click(<button "New">)'), transition('e2', 0), transition('e2', 1)],
  episodes: [episode('e1', 'buy again'), episode('e2')],
  experiences: [dynamics('x1', 'Product (imported)'), dynamics('x2', 'Cart')],
  learners: {
    alpha: [record('alpha', 'k1', 10), record('alpha', 'k2', 20), record('alpha', 'k3', 30)],
    beta: [record('beta', 'k1', 40), record('beta', 'k2', 50)],
  },
});

interface Profile {
  db: ApprenticeDb;
  deps: MemoryTransferDeps;
}

/** A profile holding rows the import overwrites or deletes, so a half-done import would show. */
async function profile(): Promise<Profile> {
  const db = await openApprenticeDb({ factory: new IDBFactory() });
  const learnerData = new IdbLearnerDataStore(db);
  await new IdbStepRowStore(db).putEpisode('e1', [transition('e1', 0, 'click(<button "Old">)'), transition('e1', 1)]);
  await new IdbEpisodeStore(db).put(episode('e1'));
  await experienceStoreOn(new IdbSiteRows(db, 'experiences')).putMany([dynamics('x1', 'Product')]);
  await learnerData.put(record('alpha', 'k1', 1));
  await learnerData.put(record('gamma', 'k1', 2));
  const memoryOf = (id: string, store: LearnerDataStore) => ({ id, memory: new LearnerData(store, id, ValueSchema).memory() });
  const deps: MemoryTransferDeps = {
    episodes: new IdbEpisodeStore(db),
    // JitRL's and CER's stores are reached through their memory, as the background builds them.
    learnerMemories: [
      { id: 'cer', memory: experiencesMemory(experienceStoreOn(new IdbSiteRows(db, 'experiences'))) },
      { id: 'jitrl', memory: transitionsMemory(new IdbStepRowStore(db)) },
      memoryOf('alpha', learnerData), memoryOf('beta', learnerData),
    ],
    learning: { learners: () => [], rewards: () => DEFAULT_SETTINGS.rewards, logger: silentLogger },
    writeImport: (rows) => writeImportAtomically(db, rows),
    now: () => 100,
    upgradeEpisode: (raw: unknown) => upgradeStoredEpisode(raw, LEARNERS),
  };
  return { db, deps };
}

async function everyStore(db: ApprenticeDb) {
  return {
    transitions: await db.getAll('transitions'),
    episodes: await db.getAll('episodes'),
    experiences: await db.getAll('experiences'),
    learnerData: await db.getAll('learnerData'),
  };
}

/** Counts every put/delete on any object store; the `failAt`-th (0-based) throws, as a failed write would. */
function injectWriteFailures() {
  const proto = globalThis.IDBObjectStore.prototype;
  const original = { put: proto.put, delete: proto.delete };
  const state = { writes: 0, failAt: -1, failedOn: '' };
  for (const method of ['put', 'delete'] as const) {
    proto[method] = function (this: IDBObjectStore, ...args: unknown[]) {
      if (state.writes++ === state.failAt) {
        state.failedOn = `${method} on ${this.name}`;
        throw new DOMException(`injected failure on write #${state.failAt}`, 'UnknownError');
      }
      return (original[method] as (...a: unknown[]) => IDBRequest).apply(this, args);
    } as never;
  }
  return { state, restore: () => Object.assign(proto, original) };
}

describe('an import writes every store in one transaction', () => {
  let restore = () => undefined as unknown;
  afterEach(() => restore());

  it('writes transitions, episodes, experiences and the learners\' records, reporting per learner', async () => {
    const { db, deps } = await profile();
    const result = await importMemory(deps, archiveJson());
    expect(result).toEqual({
      transitions: 3, episodes: 2, experiences: 2,
      learners: { alpha: { imported: 3, rejected: [] }, beta: { imported: 2, rejected: [] } },
    });
    const after = await everyStore(db);
    expect(after.transitions.map((t) => `${t.id} ${t.action}`)).toEqual(['e1:0 click(<button "New">)', 'e2:0 click(<button "B0">)', 'e2:1 click(<button "B1">)']);
    expect(after.episodes.map((e) => `${e.id} ${e.task} ${e.kind}`)).toEqual(['e1 buy again imported', 'e2 buy imported']);
    expect(after.experiences.map((x) => (x as { pageName?: string }).pageName)).toEqual(['Product (imported)', 'Cart']);
    expect(after.learnerData.map((r) => `${r.learnerId}/${r.key}=${JSON.stringify(r.value)}`)).toEqual([
      'alpha/k1={"visits":10}', 'alpha/k2={"visits":20}', 'alpha/k3={"visits":30}', 'beta/k1={"visits":40}', 'beta/k2={"visits":50}', 'gamma/k1={"visits":2}',
    ]);
  });

  it('a write failing at any position, the learners\' rows included, leaves every store exactly as before', async () => {
    const injected = injectWriteFailures();
    restore = injected.restore;
    // A clean run counts the import's writes: 1 delete (e1:1) + 3 transitions + 2 episodes + 2 experiences + 5 learner rows.
    const dry = await profile();
    injected.state.writes = 0;
    await importMemory(dry.deps, archiveJson());
    const total = injected.state.writes;
    expect(total).toBe(13);

    const failedOn = new Set<string>();
    for (let n = 0; n < total; n++) {
      const { db, deps } = await profile();
      const before = await everyStore(db);
      injected.state.writes = 0;
      injected.state.failAt = n;
      await expect(importMemory(deps, archiveJson())).rejects.toThrow(/nothing was imported/);
      injected.state.failAt = -1;
      failedOn.add(injected.state.failedOn);
      expect(await everyStore(db), `failure at write #${n} (${injected.state.failedOn})`).toEqual(before);
      db.close();
    }
    // Every store's writes were among the failure points, the learners' rows too.
    expect([...failedOn].sort()).toEqual(['delete on transitions', 'put on episodes', 'put on experiences', 'put on learnerData', 'put on transitions']);
  });

  it('a learner\'s invalid record is reported and the rest is imported; an invalid archive writes nothing at all', async () => {
    const { db, deps } = await profile();
    const bad = JSON.parse(archiveJson()) as { learners: Record<string, unknown[]>; experiences: unknown[] };
    bad.learners['beta']!.push({ ...record('beta', 'k3', 0), value: { visits: 'many' } });
    const result = await importMemory(deps, JSON.stringify(bad));
    expect(result.learners?.['beta']).toEqual({ imported: 2, rejected: [`learner data beta/${ORIGIN}/k3: visits: Invalid input: expected number, received string`] });
    expect((await everyStore(db)).learnerData.map((r) => `${r.learnerId}/${r.key}`)).toEqual(['alpha/k1', 'alpha/k2', 'alpha/k3', 'beta/k1', 'beta/k2', 'gamma/k1']);

    const other = await profile();
    const untouched = await everyStore(other.db);
    bad.experiences.push({ id: 'x9', kind: 'dynamics' });
    await expect(importMemory(other.deps, JSON.stringify(bad))).rejects.toThrow(/invalid at experiences\.2\.origin/);
    expect(await everyStore(other.db)).toEqual(untouched);
  });

  it('an own-store row the archive accepts but its learner does not refuses the whole file, in the learner\'s words', async () => {
    // The archive checks only id and origin (it names no learner's kinds); CER's schema refuses the kind.
    const { db, deps } = await profile();
    const untouched = await everyStore(db);
    const bad = JSON.parse(archiveJson()) as { experiences: unknown[] };
    bad.experiences.push({ ...dynamics('x9', 'Elsewhere'), kind: 'hunch' });
    await expect(importMemory(deps, JSON.stringify(bad))).rejects.toThrow(/^experience #2 is invalid/);
    expect(await everyStore(db)).toEqual(untouched);
  });
});

describe('the in-memory import writer', () => {
  const stores = () => ({ memory: new InMemoryStepRowStore(), episodes: new InMemoryEpisodeStore(), experiences: new InMemoryExperienceStore(), learnerData: new InMemoryLearnerDataStore() });
  const rows = (): ImportRows => ({
    own: [{ store: 'transitions', rows: [transition('e1', 0), transition('e2', 0)] }, { store: 'experiences', rows: [dynamics('x1', 'Product')] }],
    episodes: [episode('e1')],
    learnerData: [record('alpha', 'k1', 1), record('beta', 'k1', 2)],
  });
  const writer = (s: ReturnType<typeof stores>) => inMemoryImportWriter(s, [{ memory: transitionsMemory(s.memory) }, { memory: experiencesMemory(s.experiences) }]);
  const contents = async (s: ReturnType<typeof stores>) => ({
    transitions: await s.memory.all(), episodes: await s.episodes.all(), experiences: await s.experiences.all(),
    learnerData: [...(await s.learnerData.list('alpha')), ...(await s.learnerData.list('beta'))],
  });

  it('writes every store', async () => {
    const s = stores();
    await writer(s)(rows());
    const c = await contents(s);
    expect([c.transitions.length, c.episodes.length, c.experiences.length, c.learnerData.length]).toEqual([2, 1, 1, 2]);
  });

  it('a row that cannot be stored, in any store, changes nothing', async () => {
    const lists = (r: ImportRows) => ({ transitions: r.own[0]!.rows, episodes: r.episodes, experiences: r.own[1]!.rows, learnerData: r.learnerData });
    for (const field of ['transitions', 'episodes', 'experiences', 'learnerData'] as const) {
      const s = stores();
      await s.learnerData.put(record('alpha', 'k1', 7));
      const before = await contents(s);
      const r = rows();
      // A function cannot be cloned into a store, as in IndexedDB.
      (lists(r)[field].at(-1) as unknown as Record<string, unknown>)['poison'] = () => undefined;
      await expect(writer(s)(r)).rejects.toThrow(/nothing was imported/);
      expect(await contents(s), field).toEqual(before);
    }
    const s = stores();
    await expect(inMemoryImportWriter(s, [])(rows())).rejects.toThrow('nothing was imported: no learner keeps the store transitions, experiences');
    expect(await contents(s)).toEqual({ transitions: [], episodes: [], experiences: [], learnerData: [] });
  });
});
