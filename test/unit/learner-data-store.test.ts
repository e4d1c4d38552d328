import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { IdbLearnerDataStore } from '../../src/adapters/idb/idb-learner-data-store.ts';
import { InMemoryLearnerDataStore } from '../../src/core/learning/in-memory/in-memory-learner-data-store.ts';
import { LearnerData } from '../../src/core/learning/learner-data.ts';
import { GLOBAL_ORIGIN, InvalidLearnerDataError, type LearnerDataStore } from '../../src/core/learning/learner-data-store.ts';

const A = 'https://a.example';
const B = 'https://b.example';
const NodeSchema = z.strictObject({ prompt: z.string(), visits: z.number().int() });

function clock(start = 100) {
  let t = start;
  return { now: () => (t += 1) };
}

const implementations: [string, () => Promise<LearnerDataStore & { close?: () => void }>][] = [
  ['in memory', async () => new InMemoryLearnerDataStore()],
  ['IndexedDB', async () => IdbLearnerDataStore.open({ factory: new IDBFactory() })],
];

describe.each(implementations)('LearnerDataStore (%s)', (_name, make) => {
  it('puts, gets, lists by learner and origin in key order, deletes', async () => {
    const store = await make();
    const evo = new LearnerData(store, 'evotest', NodeSchema, clock());
    const other = new LearnerData(store, 'metattl', z.string(), clock(500));
    await evo.put(B, 'root', { prompt: 'b', visits: 1 });
    await evo.put(A, 'n2', { prompt: 'a2', visits: 2 });
    await evo.put(A, 'n1', { prompt: 'a1', visits: 3 });
    await other.put(GLOBAL_ORIGIN, 'meta-prompt', 'be brief');

    expect(await evo.get(A, 'n1')).toEqual({
      status: 'found',
      record: { learnerId: 'evotest', origin: A, key: 'n1', value: { prompt: 'a1', visits: 3 }, updatedAt: 103 },
    });
    expect(await evo.get(A, 'none')).toEqual({ status: 'missing' });
    expect((await evo.list()).records.map((r) => `${r.origin} ${r.key}`)).toEqual([`${A} n1`, `${A} n2`, `${B} root`]);
    expect((await evo.list(A)).records.map((r) => r.key)).toEqual(['n1', 'n2']);
    expect((await other.list()).records).toEqual([{ learnerId: 'metattl', origin: '*', key: 'meta-prompt', value: 'be brief', updatedAt: 501 }]);

    // Replacing keeps one record at the address.
    await evo.put(A, 'n1', { prompt: 'a1', visits: 4 });
    expect((await evo.list(A)).records.map((r) => r.value.visits)).toEqual([4, 2]);

    expect(await evo.delete(A, 'n2')).toBe(true);
    expect(await evo.delete(A, 'n2')).toBe(false);
    expect((await evo.list(A)).records.map((r) => r.key)).toEqual(['n1']);
    store.close?.();
  });

  it('forgets a site for one learner or for all, never another origin', async () => {
    const store = await make();
    const evo = new LearnerData(store, 'evotest', NodeSchema, clock());
    const grpo = new LearnerData(store, 'tfgrpo', z.array(z.string()), clock());
    await evo.put(A, 'root', { prompt: 'a', visits: 0 });
    await evo.put(B, 'root', { prompt: 'b', visits: 0 });
    await grpo.put(A, 'library', ['x']);
    await grpo.put(GLOBAL_ORIGIN, 'library', ['y']);

    expect(await evo.forgetSite(A)).toBe(1);
    expect((await grpo.list(A)).records).toHaveLength(1);
    expect(await store.forgetSite(A)).toBe(1);
    expect((await grpo.list()).records.map((r) => r.origin)).toEqual(['*']);
    expect((await evo.list()).records.map((r) => r.origin)).toEqual([B]);
    store.close?.();
  });

  it('turns a value that no longer matches the schema into a typed error, leaving the rest readable', async () => {
    const store = await make();
    await store.put({ learnerId: 'evotest', origin: A, key: 'old', value: { prompt: 'a', visits: 'many' }, updatedAt: 1 });
    await store.put({ learnerId: 'evotest', origin: A, key: 'ok', value: { prompt: 'b', visits: 1 }, updatedAt: 2 });
    const evo = new LearnerData(store, 'evotest', NodeSchema, clock());

    const read = await evo.get(A, 'old');
    expect(read.status).toBe('invalid');
    if (read.status !== 'invalid') throw new Error('unreachable');
    expect(read.error).toBeInstanceOf(InvalidLearnerDataError);
    expect(read.error.address).toEqual({ learnerId: 'evotest', origin: A, key: 'old', value: { prompt: 'a', visits: 'many' }, updatedAt: 1 });
    expect(read.error.reason).toBe('visits: Invalid input: expected number, received string');

    const listing = await evo.list(A);
    expect(listing.records.map((r) => r.key)).toEqual(['ok']);
    expect(listing.invalid.map((e) => e.message)).toEqual([`learner data evotest/${A}/old: visits: Invalid input: expected number, received string`]);
    // The bad record stays (data is never lost by reading) and stays out of exports.
    expect((await store.list('evotest', A)).map((r) => r.key)).toEqual(['ok', 'old']);
    expect((await evo.exportAll()).map((r) => r.key)).toEqual(['ok']);
    store.close?.();
  });

  it('refuses to store what it could not read back', async () => {
    const store = await make();
    const evo = new LearnerData(store, 'evotest', NodeSchema, clock());
    await expect(evo.put(A, 'bad', { prompt: 'a', visits: 1.5 })).rejects.toThrow(new InvalidLearnerDataError({ learnerId: 'evotest', origin: A, key: 'bad' }, 'visits: Invalid input: expected int, received number'));
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    const loose = new LearnerData(store, 'loose', z.unknown(), clock());
    await expect(loose.put(A, 'cyclic', cyclic)).rejects.toBeInstanceOf(InvalidLearnerDataError);
    // undefined fields vanish through JSON, as they would in an export.
    const optional = new LearnerData(store, 'opt', z.strictObject({ a: z.number(), b: z.string().optional() }), clock());
    await optional.put(A, 'k', { a: 1, b: undefined });
    expect(await store.get({ learnerId: 'opt', origin: A, key: 'k' })).toEqual({ learnerId: 'opt', origin: A, key: 'k', value: { a: 1 }, updatedAt: 101 });
    expect(await store.list('evotest')).toEqual([]);
    store.close?.();
  });

  it('exports and imports a learner\'s records, reporting the bad ones and writing the good ones', async () => {
    const source = await make();
    const evo = new LearnerData(source, 'evotest', NodeSchema, clock());
    await evo.put(A, 'root', { prompt: 'a', visits: 2 });
    await evo.put(B, 'root', { prompt: 'b', visits: 5 });
    const exported = JSON.parse(JSON.stringify(await evo.exportAll())) as unknown[];
    source.close?.();

    const target = await make();
    const into = new LearnerData(target, 'evotest', NodeSchema, clock());
    const report = await into.import([
      ...exported,
      { learnerId: 'metattl', origin: A, key: 'g', value: 'x', updatedAt: 1 },
      { learnerId: 'evotest', origin: A, key: 'bad', value: { prompt: 1, visits: 1 }, updatedAt: 1 },
      { learnerId: 'evotest', origin: A, key: 'extra', value: { prompt: 'a', visits: 1 }, updatedAt: 1, secret: 'x' },
    ]);
    expect(report.imported).toBe(2);
    expect(report.rejected.map((e) => e.message)).toEqual([
      `learner data metattl/${A}/g: belongs to learner "metattl", not "evotest"`,
      `learner data evotest/${A}/bad: prompt: Invalid input: expected string, received number`,
      'learner data evotest/?/#4: (value): Unrecognized key: "secret"',
    ]);
    expect((await into.list()).records).toEqual([
      { learnerId: 'evotest', origin: A, key: 'root', value: { prompt: 'a', visits: 2 }, updatedAt: 101 },
      { learnerId: 'evotest', origin: B, key: 'root', value: { prompt: 'b', visits: 5 }, updatedAt: 102 },
    ]);
    expect(await into.import({ not: 'a list' })).toEqual({
      imported: 0,
      rejected: [new InvalidLearnerDataError({ learnerId: 'evotest', origin: '?', key: '?' }, 'an import must be a list of records')],
    });
    target.close?.();
  });

  it('gives the registry a memory: forget, export, validate an import, list', async () => {
    const store = await make();
    const memory = new LearnerData(store, 'evotest', NodeSchema, clock()).memory();
    const other = new LearnerData(store, 'other', NodeSchema, clock());
    await other.put(A, 'root', { prompt: 'o', visits: 0 });
    const prepared = memory.prepareImport([{ learnerId: 'evotest', origin: A, key: 'root', value: { prompt: 'a', visits: 1 }, updatedAt: 7 }, 3]);
    expect(prepared).toEqual({
      records: [{ learnerId: 'evotest', origin: A, key: 'root', value: { prompt: 'a', visits: 1 }, updatedAt: 7 }],
      rejected: ['learner data evotest/?/#1: (value): Invalid input: expected object, received number'],
    });
    // Validating writes nothing: the whole archive's import writes the records in one transaction.
    expect(await memory.list(A)).toEqual([]);
    await store.import(prepared.records);
    expect(await memory.list(A)).toEqual([{ learnerId: 'evotest', origin: A, key: 'root', value: { prompt: 'a', visits: 1 }, updatedAt: 7 }]);
    expect(await memory.export()).toEqual([{ learnerId: 'evotest', origin: A, key: 'root', value: { prompt: 'a', visits: 1 }, updatedAt: 7 }]);
    expect(await memory.forgetSite(A)).toBe(1);
    expect(await memory.list()).toEqual([]);
    expect((await other.list(A)).records).toHaveLength(1);
    store.close?.();
  });
});

describe('IdbLearnerDataStore', () => {
  it('skips and counts rows whose envelope is broken', async () => {
    const store = await IdbLearnerDataStore.open({ factory: new IDBFactory() });
    await store.db.put('learnerData', { learnerId: 'evotest', origin: A, key: 'k', value: 1 } as never);
    await store.db.put('learnerData', { learnerId: 'evotest', origin: A, key: 'ok', value: 2, updatedAt: 3 });
    expect(await store.get({ learnerId: 'evotest', origin: A, key: 'k' })).toBeNull();
    expect(await store.list('evotest')).toEqual([{ learnerId: 'evotest', origin: A, key: 'ok', value: 2, updatedAt: 3 }]);
    expect(store.corruptRowsSkipped).toBe(2);
    store.close();
  });
});
