import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { IdbGuideStore } from '../../src/adapters/idb/idb-guide-store.ts';
import { openApprenticeDb } from '../../src/adapters/idb/open-database.ts';
import { emptyGuideRecord, replaceGuide } from '../../src/core/learning/metattl/guide-record.ts';

const A = 'http://a.test';
const B = 'http://b.test';

describe('IdbGuideStore', () => {
  it('stores, lists per site, and forgets one site or all', async () => {
    const store = await IdbGuideStore.open({ factory: new IDBFactory() });
    const r1 = replaceGuide(emptyGuideRecord(`${A} t1`, A, 't1', 1), { guide: 'g1', diagnosis: 'd', afterAttempt: 1, outcome: 'failure', now: 2 });
    await store.put(r1);
    await store.put(emptyGuideRecord(`${A} t2`, A, 't2', 3));
    await store.put(emptyGuideRecord(`${B} t1`, B, 't1', 4));
    expect(await store.get(`${A} t1`)).toEqual(r1);
    expect(await store.get('nope')).toBeNull();
    expect((await store.list(A)).map((r) => r.key).sort()).toEqual([`${A} t1`, `${A} t2`]);
    expect(await store.list()).toHaveLength(3);
    expect(await store.forget(A)).toBe(2);
    expect((await store.list()).map((r) => r.origin)).toEqual([B]);
    expect(await store.forget()).toBe(1);
    expect(await store.list()).toEqual([]);
  });

  it('skips and counts rows that do not validate', async () => {
    const factory = new IDBFactory();
    const db = await openApprenticeDb({ factory });
    await db.put('guides', { key: `${A} bad`, origin: A } as never);
    db.close();
    const store = await IdbGuideStore.open({ factory });
    await store.put(emptyGuideRecord(`${A} ok`, A, 'ok', 1));
    expect((await store.list(A)).map((r) => r.key)).toEqual([`${A} ok`]);
    expect(await store.get(`${A} bad`)).toBeNull();
    expect(store.corruptRowsSkipped).toBe(2);
  });

  it('a version-2 database gains the guides store and keeps its data', async () => {
    const factory = new IDBFactory();
    const v2 = await openApprenticeDb({ factory, version: 2 });
    await v2.put('transitions' as never, { id: 'x', origin: A, regUrl: '/', createdAt: 1, episodeId: 'e' } as never);
    v2.close();
    const store = await IdbGuideStore.open({ factory });
    expect([...store.db.objectStoreNames]).toContain('guides');
    expect(await store.db.get('transitions', 'x')).toMatchObject({ id: 'x', origin: A });
  });
});
