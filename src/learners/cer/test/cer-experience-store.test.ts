import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { IdbSiteRows } from '../../../adapters/idb/idb-site-rows.ts';
import { openApprenticeDb } from '../../../adapters/idb/open-database.ts';
import { experienceStoreOn, InMemoryExperienceStore, type ExperienceStore } from '../core/experience-store.ts';
import type { Logger } from '../../../core/ports.ts';
import { dynamics, ORIGIN, skill } from './cer-helpers.ts';

const OTHER = 'https://other.example';

async function exercise(store: ExperienceStore) {
  const d1 = dynamics('d1');
  const s1 = skill('s1');
  const s2 = skill('s2', { origin: OTHER, name: 'Elsewhere {x}' });
  await store.putMany([d1, s1, s2]);
  expect((await store.list(ORIGIN)).map((e) => e.id).sort()).toEqual(['d1', 's1']);
  expect(await store.list(ORIGIN)).toContainEqual(s1);

  // put replaces by id
  await store.putMany([{ ...d1, pageName: 'Catalogue page' }]);
  const listed = await store.list(ORIGIN);
  expect(listed.find((e) => e.id === 'd1')).toEqual({ ...d1, pageName: 'Catalogue page' });

  // what the caller holds is a copy
  listed[0]!.provenance.retrieved = 99;
  expect((await store.all()).every((e) => e.provenance.retrieved === 0)).toBe(true);

  expect(await store.delete(['s1', 's1', 'missing'])).toBe(1);
  expect(await store.forgetSite(ORIGIN)).toBe(1);
  expect((await store.all()).map((e) => e.id)).toEqual(['s2']);
  expect(await store.forgetSite(ORIGIN)).toBe(0);
}

describe('ExperienceStore', () => {
  it('in memory: lists by site, replaces by id, deletes and forgets', async () => {
    await exercise(new InMemoryExperienceStore());
  });

  it('IndexedDB: the same behaviour', async () => {
    const rows = await IdbSiteRows.open('experiences', { factory: new IDBFactory() });
    await exercise(experienceStoreOn(rows));
    rows.close();
  });

  it('IndexedDB: keeps entries across close and reopen', async () => {
    const factory = new IDBFactory();
    const rows = await IdbSiteRows.open('experiences', { factory });
    const entries = [dynamics('d1'), skill('s1')];
    await experienceStoreOn(rows).putMany(entries);
    rows.close();
    const reopened = await IdbSiteRows.open('experiences', { factory });
    expect((await experienceStoreOn(reopened).list(ORIGIN)).sort((a, b) => a.id.localeCompare(b.id))).toEqual(entries);
    reopened.close();
  });

  it('IndexedDB: CER skips and counts rows that no longer validate, and logs them (the store returns them as they are)', async () => {
    const factory = new IDBFactory();
    const db = await openApprenticeDb({ factory });
    await db.put('experiences', { id: 'broken', origin: ORIGIN, kind: 'skill', name: 'no steps' });
    await db.put('experiences', { ...dynamics('ok') });
    const warnings: string[] = [];
    const logger: Logger = { info: () => {}, warn: (m, data) => warnings.push(`${m} ${String(data?.['id'])}`), error: () => {} };
    const rows = new IdbSiteRows(db, 'experiences');
    expect((await rows.list(ORIGIN)).length).toBe(2);
    const store = experienceStoreOn(rows, logger);
    expect((await store.list(ORIGIN)).map((e) => e.id)).toEqual(['ok']);
    expect((await store.all()).map((e) => e.id)).toEqual(['ok']);
    expect(store.corruptRowsSkipped).toBe(2);
    expect(warnings).toEqual(['skipped a corrupt experience row broken', 'skipped a corrupt experience row broken']);
    rows.close();
  });
});
