import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { IdbLineageStore } from '../../src/adapters/idb/idb-lineage-store.ts';
import { openApprenticeDb } from '../../src/adapters/idb/open-database.ts';
import { addChildren, newLineage, recordEpisode } from '../../src/core/learning/evotest/lineage.ts';
import { digest, SEED, step } from './evotest-helpers.ts';

describe('IdbLineageStore', () => {
  it('round-trips lineages, lists by site, deletes, forgets a site and skips corrupt records', async () => {
    const warnings: string[] = [];
    const db = await openApprenticeDb({ factory: new IDBFactory() });
    const store = new IdbLineageStore(db, { info: () => {}, warn: (m) => warnings.push(m), error: () => {} });
    let a = newLineage({ origin: 'https://a.test', template: 'open order …', seed: SEED, now: 1 });
    a = recordEpisode(a, digest([step('click(<link "Orders">)')]), 2);
    a = addChildren(a, 'c0', [{ configuration: { ...SEED, guidance: 'x' }, source: 'model', rationale: 'r' }], 3).lineage;
    const b = newLineage({ origin: 'https://a.test', template: 'ship order …', seed: SEED, now: 1 });
    const c = newLineage({ origin: 'https://b.test', template: 'post …', seed: SEED, now: 1 });
    for (const l of [a, b, c]) await store.put(l);
    expect(await store.get(a.key)).toEqual(a);
    expect((await store.list('https://a.test')).map((l) => l.template).sort()).toEqual(['open order …', 'ship order …']);
    expect(await store.list()).toHaveLength(3);
    await db.put('lineages', { key: 'bad', origin: 'https://a.test', nodes: 'not a list' } as never);
    expect(await store.list('https://a.test')).toHaveLength(2);
    expect(store.corruptRowsSkipped).toBe(1);
    expect(warnings).toEqual(['skipped a corrupt EvoTest lineage']);
    expect(await store.delete(b.key)).toBe(true);
    expect(await store.delete(b.key)).toBe(false);
    expect(await store.forgetSite('https://a.test')).toBe(2); // a and the corrupt one
    expect(await store.list()).toEqual([c]);
    db.close();
  });
});
