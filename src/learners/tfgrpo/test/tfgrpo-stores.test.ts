import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { IdbLearnerDataStore } from '../../../adapters/idb/idb-learner-data-store.ts';
import { InMemoryLearnerDataStore } from '../../../core/learning/in-memory/in-memory-learner-data-store.ts';
import { LearnerDataTfgrpoStore } from '../core/learner-data-tfgrpo-store.ts';
import type { LibraryRevision } from '../core/library.ts';
import { InMemoryTfgrpoStore, MAX_REVISIONS_PER_SITE, type TfgrpoStore } from '../core/tfgrpo-store.ts';
import { attempt, experience, G1, ORIGIN, step } from './tfgrpo-helpers.ts';

const OTHER = 'http://forum.fixture.test';

const revision = (n: number, origin = ORIGIN): LibraryRevision => ({
  id: `r-${origin}-${n}`, origin, group: G1, at: n, before: [experience(`x-${n}`, `Lesson ${n}: before.`)],
  added: [], updated: [], deleted: [`x-${n}`], evicted: [],
});

const stores: [string, () => Promise<TfgrpoStore>][] = [
  ['in memory', async () => new InMemoryTfgrpoStore()],
  ['generic learner store, in memory', async () => new LearnerDataTfgrpoStore(new InMemoryLearnerDataStore(), 'tfgrpo')],
  ['generic learner store, IndexedDB', async () => new LearnerDataTfgrpoStore(await IdbLearnerDataStore.open({ factory: new IDBFactory() }), 'tfgrpo')],
];

describe.each(stores)('TfgrpoStore (%s)', (_name, make) => {
  it('keeps one library per site in order, replaced whole', async () => {
    const store = await make();
    const lib = [experience('x-b', 'B: second.'), experience('x-a', 'A: first.')];
    await store.saveLibrary(ORIGIN, lib, null);
    await store.saveLibrary(OTHER, [experience('x-c', 'C: other site.', {}, { origin: OTHER })], null);
    expect(await store.library(ORIGIN)).toEqual(lib);
    expect(await store.library('http://nowhere.test')).toEqual([]);
    expect((await store.allExperiences()).map((e) => e.id).sort()).toEqual(['x-a', 'x-b', 'x-c']);
  });

  it('undo restores the newest revision and drops it; only the newest revisions per site are kept', async () => {
    const store = await make();
    for (let n = 1; n <= MAX_REVISIONS_PER_SITE + 2; n++) await store.saveLibrary(ORIGIN, [], revision(n));
    await store.saveLibrary(OTHER, [], revision(99, OTHER));
    const latest = await store.latestRevision(ORIGIN);
    expect(latest).toEqual(revision(MAX_REVISIONS_PER_SITE + 2));
    await store.undo(latest!);
    expect(await store.library(ORIGIN)).toEqual(latest!.before);
    expect((await store.latestRevision(ORIGIN))?.id).toBe(revision(MAX_REVISIONS_PER_SITE + 1).id);
    // After 12 saves and one undo, 9 remain: revisions 3..11.
    let left = 0;
    for (let r = await store.latestRevision(ORIGIN); r; r = await store.latestRevision(ORIGIN)) {
      left++;
      await store.undo(r);
    }
    expect(left).toBe(MAX_REVISIONS_PER_SITE - 1);
    expect(await store.library(ORIGIN)).toEqual(revision(3).before);
  });

  it('keeps open groups, and forgetting a site removes its library, revisions and groups only', async () => {
    const store = await make();
    const group = { key: `${ORIGIN}\nadd teapot`, origin: ORIGIN, attempts: [attempt('e1', 'failure', [step('/list', 'click(<link "Home">)')])] };
    await store.savePendingGroup(group);
    await store.savePendingGroup({ key: `${OTHER}\nvote`, origin: OTHER, attempts: [] });
    expect(await store.pendingGroup(group.key)).toEqual(group);
    await store.saveLibrary(ORIGIN, [experience('x-a', 'A: first.')], revision(1));
    await store.saveLibrary(OTHER, [experience('x-c', 'C: other.', {}, { origin: OTHER })], revision(2, OTHER));
    expect(await store.forgetSite(ORIGIN)).toBe(1);
    expect(await store.library(ORIGIN)).toEqual([]);
    expect(await store.latestRevision(ORIGIN)).toBeNull();
    expect(await store.pendingGroup(group.key)).toBeNull();
    expect(await store.library(OTHER)).toHaveLength(1);
    expect(await store.pendingGroup(`${OTHER}\nvote`)).not.toBeNull();
    await store.deletePendingGroup(`${OTHER}\nvote`);
    expect(await store.pendingGroup(`${OTHER}\nvote`)).toBeNull();
  });
});

describe('LearnerDataTfgrpoStore', () => {
  it('exports its records through the generic memory and imports them into an empty store', async () => {
    const from = new LearnerDataTfgrpoStore(new InMemoryLearnerDataStore(), 'tfgrpo');
    await from.saveLibrary(ORIGIN, [experience('x-a', 'A: first.')], revision(5));
    const exported = await from.data.memory().export();
    const to = new LearnerDataTfgrpoStore(new InMemoryLearnerDataStore(), 'tfgrpo');
    expect(await to.data.import(exported)).toEqual({ imported: 2, rejected: [] });
    expect(await to.library(ORIGIN)).toEqual([experience('x-a', 'A: first.')]);
    expect(await to.latestRevision(ORIGIN)).toEqual(revision(5));
    const bad = await to.data.import([{ learnerId: 'tfgrpo', origin: ORIGIN, key: 'library', value: { kind: 'library', experiences: [{ id: 1 }] }, updatedAt: 0 }]);
    expect(bad.imported).toBe(0);
    expect(bad.rejected).toHaveLength(1);
    expect(await to.library(ORIGIN)).toEqual([experience('x-a', 'A: first.')]);
  });
});
