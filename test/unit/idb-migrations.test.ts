import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { APPRENTICE_DB_VERSION, DatabaseOpenError, migrationLog, openApprenticeDb } from '../../src/adapters/idb/open-database.ts';
import { IdbStepRowStore } from '../../src/adapters/idb/idb-step-row-store.ts';
import { IdbLearnerDataStore } from '../../src/adapters/idb/idb-learner-data-store.ts';

/** A row as version 1 wrote it: keyed by `site`, raw `url`, no updatedAt/rewardSource. */
function v1Row(episodeId: string, stepIndex: number, createdAt: number, regUrl = '/products/{slug}') {
  return {
    id: `${episodeId}:${stepIndex}`,
    site: 'https://shop.example',
    url: `https://shop.example/products/blue-shirt-${stepIndex}`,
    regUrl,
    effectiveState: [],
    stateTokens: [],
    task: 'buy a shirt',
    taskTokens: ['buy', 'shirt'],
    action: 'click(<button "Add to cart">)',
    reward: 2,
    futureRewards: [2, 0],
    episodeId,
    stepIndex,
    createdAt,
  };
}

describe('openApprenticeDb migrations', () => {
  // The version-2 tests open at version 2 explicitly: their assertions describe that version (v3 is tested below).
  it('creates the version-2 schema on a fresh database', async () => {
    const factory = new IDBFactory();
    const db = await openApprenticeDb({ factory, version: 2 });
    expect(db.version).toBe(2);
    expect([...db.objectStoreNames].sort()).toEqual(['episodes', 'experiences', 'meta', 'transitions']);
    const tx = db.transaction(['transitions', 'episodes', 'experiences']);
    expect([...tx.objectStore('transitions').indexNames].sort()).toEqual(['byEpisode', 'byOrigin', 'byPage']);
    expect(tx.objectStore('transitions').index('byPage').keyPath).toEqual(['origin', 'regUrl', 'createdAt']);
    expect([...tx.objectStore('episodes').indexNames].sort()).toEqual(['byOrigin', 'byOriginTask', 'byStartedAt', 'byStatus']);
    expect([...tx.objectStore('experiences').indexNames].sort()).toEqual(['byKind', 'byOrigin']);
    const log = await migrationLog(db);
    expect(log?.map((m) => [m.from, m.to, m.rows])).toEqual([[0, 1, 0], [1, 2, 0]]);
    db.close();
  });

  it('migrates transitions a version-1 build wrote by hand', async () => {
    const factory = new IDBFactory();
    // Written the way the first release laid the database out, without our code.
    const request = factory.open('apprentice', 1);
    request.onupgradeneeded = () => {
      const store = request.result.createObjectStore('transitions', { keyPath: 'id' });
      store.createIndex('bySite', 'site');
      store.createIndex('bySiteUrl', ['site', 'regUrl']);
      store.put(v1Row('e', 0, 10));
      store.put(v1Row('e', 1, 20, '/cart'));
      store.put(v1Row('f', 0, 30));
    };
    await new Promise<void>((resolve, reject) => {
      request.onsuccess = () => { request.result.close(); resolve(); };
      request.onerror = () => reject(request.error);
    });

    const store = await IdbStepRowStore.open({ factory, version: 2 });
    const page = await store.byPage('https://shop.example', '/products/{slug}');
    expect(page.map((t) => t.id)).toEqual(['f:0', 'e:0']);
    expect(page[1]).toEqual({
      id: 'e:0',
      origin: 'https://shop.example',
      regUrl: '/products/{slug}',
      effectiveState: [],
      stateTokens: [],
      task: 'buy a shirt',
      taskTokens: ['buy', 'shirt'],
      action: 'click(<button "Add to cart">)',
      reward: 2,
      rewardSource: 'evaluator',
      futureRewards: [2, 0],
      episodeId: 'e',
      stepIndex: 0,
      createdAt: 10,
      updatedAt: 10,
    });
    expect(store.corruptRowsSkipped).toBe(0);
    expect((await store.sites())).toEqual([{ origin: 'https://shop.example', rows: 3, pages: 2, lastUpdated: 30 }]);
    const log = await migrationLog(store.db);
    expect(log?.map((m) => [m.from, m.to, m.rows])).toEqual([[1, 2, 3]]);
    store.close();
  });

  it('runs the same step-by-step path from a database our own v1 created', async () => {
    const factory = new IDBFactory();
    const v1 = await openApprenticeDb({ factory, version: 1 });
    expect([...v1.objectStoreNames]).toEqual(['transitions']);
    const raw = v1 as unknown as Awaited<ReturnType<typeof openDB>>;
    await raw.put('transitions', v1Row('e', 0, 5));
    v1.close();
    const db = await openApprenticeDb({ factory, version: 2 });
    expect(db.version).toBe(2);
    expect((await db.getAllFromIndex('transitions', 'byEpisode', 'e')).map((t) => [t.origin, t.updatedAt])).toEqual([['https://shop.example', 5]]);
    db.close();
  });

  it('leaves the old version intact when a migration fails', async () => {
    const factory = new IDBFactory();
    const request = factory.open('apprentice', 1);
    request.onupgradeneeded = () => {
      // No bySiteUrl index: migration 1 → 2 cannot delete it and must abort.
      const store = request.result.createObjectStore('transitions', { keyPath: 'id' });
      store.createIndex('bySite', 'site');
      store.put(v1Row('e', 0, 10));
    };
    await new Promise<void>((resolve) => { request.onsuccess = () => { request.result.close(); resolve(); }; });

    await expect(openApprenticeDb({ factory })).rejects.toBeInstanceOf(DatabaseOpenError);
    const check = factory.open('apprentice');
    const [version, row] = await new Promise<[number, unknown]>((resolve) => {
      check.onsuccess = () => {
        const db = check.result;
        const get = db.transaction('transitions').objectStore('transitions').get('e:0');
        get.onsuccess = () => { db.close(); resolve([db.version, get.result]); };
      };
    });
    expect(version).toBe(1);
    expect(row).toEqual(v1Row('e', 0, 10));
  });

  it('refuses versions it does not know', async () => {
    await expect(openApprenticeDb({ factory: new IDBFactory(), version: 4 })).rejects.toThrow('unknown database version 4');
  });

  it('creates the current (version 3) schema, with the generic learner store, on a fresh database', async () => {
    const db = await openApprenticeDb({ factory: new IDBFactory() });
    expect(db.version).toBe(APPRENTICE_DB_VERSION);
    expect(APPRENTICE_DB_VERSION).toBe(3);
    expect([...db.objectStoreNames].sort()).toEqual(['episodes', 'experiences', 'learnerData', 'meta', 'transitions']);
    const store = db.transaction('learnerData').store;
    expect(store.keyPath).toEqual(['learnerId', 'origin', 'key']);
    expect([...store.indexNames].sort()).toEqual(['byLearnerUpdated', 'byOrigin']);
    expect(store.index('byOrigin').keyPath).toBe('origin');
    expect(store.index('byLearnerUpdated').keyPath).toEqual(['learnerId', 'updatedAt']);
    expect((await migrationLog(db))?.map((m) => [m.from, m.to, m.rows])).toEqual([[0, 1, 0], [1, 2, 0], [2, 3, 0]]);
    db.close();
  });

  it('migrates a version-2 database to version 3 keeping every row, and the new store works', async () => {
    const factory = new IDBFactory();
    const v2 = await openApprenticeDb({ factory, version: 2 });
    const raw = v2 as unknown as Awaited<ReturnType<typeof openDB>>;
    const transition = { ...v1Row('e', 0, 5), origin: 'https://shop.example', updatedAt: 5, rewardSource: 'person' } as Record<string, unknown>;
    delete transition['site'];
    delete transition['url'];
    await raw.put('transitions', transition);
    await raw.put('experiences', { id: 'x1', origin: 'https://shop.example', kind: 'skill', text: 'search first' });
    v2.close();

    const memory = await IdbStepRowStore.open({ factory });
    expect(memory.db.version).toBe(3);
    expect((await memory.all()).map((t) => [t.id, t.origin, t.rewardSource])).toEqual([['e:0', 'https://shop.example', 'person']]);
    expect(await memory.db.getAll('experiences')).toEqual([{ id: 'x1', origin: 'https://shop.example', kind: 'skill', text: 'search first' }]);
    expect((await migrationLog(memory.db))?.map((m) => [m.from, m.to, m.rows])).toEqual([[0, 1, 0], [1, 2, 0], [2, 3, 0]]);
    memory.close();

    const data = await IdbLearnerDataStore.open({ factory });
    await data.put({ learnerId: 'evotest', origin: 'https://shop.example', key: 'root', value: { prompt: 'p' }, updatedAt: 9 });
    expect(await data.list('evotest')).toEqual([{ learnerId: 'evotest', origin: 'https://shop.example', key: 'root', value: { prompt: 'p' }, updatedAt: 9 }]);
    data.close();
  });

  it('takes a hand-written version-1 database all the way to version 3', async () => {
    const factory = new IDBFactory();
    const request = factory.open('apprentice', 1);
    request.onupgradeneeded = () => {
      const store = request.result.createObjectStore('transitions', { keyPath: 'id' });
      store.createIndex('bySite', 'site');
      store.createIndex('bySiteUrl', ['site', 'regUrl']);
      store.put(v1Row('e', 0, 10));
    };
    await new Promise<void>((resolve) => { request.onsuccess = () => { request.result.close(); resolve(); }; });
    const store = await IdbStepRowStore.open({ factory });
    expect(store.db.version).toBe(3);
    expect((await store.byPage('https://shop.example', '/products/{slug}')).map((t) => t.id)).toEqual(['e:0']);
    expect((await migrationLog(store.db))?.map((m) => [m.from, m.to, m.rows])).toEqual([[1, 2, 1], [2, 3, 0]]);
    expect(store.db.objectStoreNames.contains('learnerData')).toBe(true);
    store.close();
  });
});
