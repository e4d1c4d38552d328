/**
 * Durability: checkpoints and memory rows commit with durability 'strict', a
 * full disk is a clear StorageFullError, and an import that fails at its Nth
 * write leaves every store exactly as it was.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it, vi } from 'vitest';
import { IdbEpisodeStore } from '../../src/adapters/idb/idb-episode-store.ts';
import { IdbStepRowStore } from '../../src/adapters/idb/idb-step-row-store.ts';
import { IdbSiteRows } from '../../src/adapters/idb/idb-site-rows.ts';
import { experienceStoreOn } from '../../src/learners/cer/core/experience-store.ts';
import { openApprenticeDb, type ApprenticeDb } from '../../src/adapters/idb/open-database.ts';
import { writeImportAtomically, ImportWriteError } from '../../src/adapters/idb/idb-archive-import.ts';
import { StorageFullError } from '../../src/adapters/idb/durable-writes.ts';
import { asImportedEpisode } from '../../src/core/archive/memory-archive.ts';
import type { Episode } from '../../src/core/episode/episode.ts';
import type { StepRow } from '../../src/core/stores/step-rows.ts';
import type { ExperienceEntry } from '../../src/learners/cer/core/experience.ts';

const transition = (episodeId: string, i: number): StepRow => ({
  id: `${episodeId}:${i}`, origin: 'https://shop.example', regUrl: '/p/{id}', effectiveState: [], stateTokens: [], task: 'buy', taskTokens: ['buy'],
  action: `click(<button "B${i}">)`, reward: 1, rewardSource: 'person', futureRewards: [1], episodeId, stepIndex: i, createdAt: 1000 + i, updatedAt: 2000,
});
const episode = (id: string, over: Partial<Episode> = {}): Episode => ({
  id, origin: 'https://shop.example', task: 'buy', startUrl: 'https://shop.example/', tabId: 3, status: 'success', steps: [], answer: null, error: null,
  learners: [], attempt: 1, kind: 'live', startedAt: 1, endedAt: 2, ...over,
});
const experience = (id: string) => ({ id, origin: 'https://shop.example', kind: 'dynamics' }) as unknown as ExperienceEntry;

async function snapshot(db: ApprenticeDb) {
  return { t: await db.getAll('transitions'), e: await db.getAll('episodes'), x: await db.getAll('experiences') };
}

describe('strict durability and storage-full errors', () => {
  it('checkpoints and memory writes ask for durability strict', async () => {
    const db = await openApprenticeDb({ factory: new IDBFactory() });
    const spy = vi.spyOn(db, 'transaction');
    await new IdbEpisodeStore(db).put(episode('e1'));
    await new IdbStepRowStore(db).putEpisode('e1', [transition('e1', 0)]);
    await experienceStoreOn(new IdbSiteRows(db, 'experiences')).putMany([experience('x1')]);
    expect(spy.mock.calls.map((c) => c[2])).toEqual([{ durability: 'strict' }, { durability: 'strict' }, { durability: 'strict' }]);
  });

  it('a quota error becomes StorageFullError saying what was not saved', async () => {
    const db = await openApprenticeDb({ factory: new IDBFactory() });
    vi.spyOn(db, 'transaction').mockImplementation(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    const failure = new IdbEpisodeStore(db).put(episode('e1'));
    await expect(failure).rejects.toBeInstanceOf(StorageFullError);
    await expect(failure).rejects.toThrow(/storage for Apprentice is full, so the episode was not saved/);
  });
});

describe('writeImportAtomically', () => {
  const rows = () => ({
    own: [
      { store: 'transitions', rows: [transition('e1', 0), transition('e1', 1), transition('e2', 0)] },
      { store: 'experiences', rows: [experience('x1'), experience('x2')] },
    ],
    episodes: [episode('e1'), episode('e2')],
    learnerData: [],
  });

  it('writes every store in one go', async () => {
    const db = await openApprenticeDb({ factory: new IDBFactory() });
    await writeImportAtomically(db, rows());
    const s = await snapshot(db);
    expect([s.t.length, s.e.length, s.x.length]).toEqual([3, 2, 2]);
  });

  it('a failure at the Nth write, for every N, leaves every store unchanged', async () => {
    const total = 3 + 2 + 2;
    for (let n = 0; n < total; n++) {
      const db = await openApprenticeDb({ factory: new IDBFactory() });
      await writeImportAtomically(db, {
        own: [{ store: 'transitions', rows: [transition('e1', 0), transition('old', 0)] }, { store: 'experiences', rows: [experience('x0')] }],
        episodes: [episode('old')], learnerData: [],
      });
      const before = await snapshot(db);
      const r = rows();
      const all = [...r.own[0]!.rows, ...r.episodes, ...r.own[1]!.rows] as unknown as Record<string, unknown>[];
      // A function cannot be structured-cloned: the Nth put throws inside the transaction.
      all[n]!['poison'] = () => undefined;
      await expect(writeImportAtomically(db, r)).rejects.toBeInstanceOf(ImportWriteError);
      expect(await snapshot(db)).toEqual(before);
    }
  });

  it('refuses rows for a store it does not have, writing nothing', async () => {
    const db = await openApprenticeDb({ factory: new IDBFactory() });
    const r = { ...rows(), own: [...rows().own, { store: 'notes', rows: [{ id: 'n1' }] }] };
    await expect(writeImportAtomically(db, r)).rejects.toThrow('nothing was imported: this database has no store notes');
    const s = await snapshot(db);
    expect([s.t.length, s.e.length, s.x.length]).toEqual([0, 0, 0]);
  });
});

describe('asImportedEpisode', () => {
  it('is always finished and never bound to a tab', () => {
    const e = asImportedEpisode(episode('e1', { status: 'awaiting_approval', endedAt: null, tabId: 9 }), 500);
    expect([e.status, e.tabId, e.endedAt, e.kind]).toEqual(['stopped', null, 500, 'imported']);
    expect(asImportedEpisode(episode('e2', { status: 'success', kind: 'demonstration' }), 5).status).toBe('success');
  });
});
