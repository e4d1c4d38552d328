/**
 * Declared stores: a learner is handed learnerData and the stores its
 * definition declares, nothing else; the roots build each declared store once
 * by name, on the object store where its rows already are.
 */
import { describe, expect, it } from 'vitest';
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { scopedStores, storesFrom, UndeclaredStoreError, type StoreDeclaration } from '../../src/core/learning/learner-stores.ts';
import { buildLearners, inMemoryLearnerStores, REGISTERED_LEARNERS } from '../../src/core/learning/registry/registry-factories.ts';
import { InMemoryLearnerDataStore } from '../../src/core/learning/in-memory/in-memory-learner-data-store.ts';
import { InMemorySiteRows } from '../../src/core/stores/in-memory-site-rows.ts';
import { idbLearnerStores } from '../../src/adapters/idb/idb-learner-stores.ts';
import { IdbStepRowStore } from '../../src/adapters/idb/idb-step-row-store.ts';
import { IdbSiteRows } from '../../src/adapters/idb/idb-site-rows.ts';
import { openApprenticeDb } from '../../src/adapters/idb/open-database.ts';
import { silentLogger } from '../../src/core/ports.ts';
import { seededRandom } from '../../src/core/random.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import type { LearnerDefinition, LearnerFactory, LearnerPorts } from '../../src/core/learning/learner-definition.ts';

const ROWS: StoreDeclaration<'siteRows'> = { kind: 'siteRows', name: 'experiences' };
const TRANSITIONS: StoreDeclaration<'stepRows'> = { kind: 'stepRows', name: 'transitions' };

describe('declared stores', () => {
  it('a learner reaches only what it declared', () => {
    const all = inMemoryLearnerStores();
    const scoped = scopedStores(all, 'tally', [ROWS]);
    expect(scoped.declared(ROWS)).toBe(all.declared(ROWS));
    expect(scoped.learnerData).toBe(all.learnerData);
    expect(() => scoped.declared(TRANSITIONS)).toThrow(UndeclaredStoreError);
    expect(() => scoped.declared(TRANSITIONS)).toThrow('learner "tally" did not declare the stepRows store "transitions"');
    // Same name, other kind: not what it declared either.
    expect(() => scoped.declared({ kind: 'stepRows', name: 'experiences' })).toThrow(UndeclaredStoreError);
  });

  it('the registry builds each learner on its own declarations (a learner without any gets none)', () => {
    const seen: string[] = [];
    const probe = (id: string, stores: readonly StoreDeclaration[]): LearnerDefinition & LearnerFactory => ({
      id, label: id, settings: { schema: {} as never, defaults: {}, read: () => ({}) }, enabled: () => true,
      needsModel: { level: 'no', description: '' }, keepsMemory: false, stores,
      create: (ports) => {
        for (const d of [ROWS, TRANSITIONS]) {
          try { ports.stores.declared(d); seen.push(`${id}:${d.name}`); } catch (error) { if (!(error instanceof UndeclaredStoreError)) throw error; }
        }
        return { id };
      },
    });
    const ports: LearnerPorts = { stores: inMemoryLearnerStores(), settings: () => DEFAULT_SETTINGS, model: () => null, clock: { now: () => 1 }, random: seededRandom(0) };
    buildLearners(ports, { registry: [probe('plain', []), probe('rows', [ROWS])] });
    expect(seen).toEqual(['rows:experiences']);
  });

  it('the shipped learners declare the two stores that predate learnerData, under their old names', () => {
    const declared = REGISTERED_LEARNERS.flatMap((d) => (d.stores ?? []).map((s) => `${s.kind}:${s.name}`)).sort();
    expect(declared).toEqual(['siteRows:experiences', 'stepRows:transitions']);
  });

  it('one store per name, of one kind; IndexedDB opens a declared store on the object store of its name', async () => {
    // A builder that always makes site rows: asking for the same name as another kind must fail, not hand the wrong store.
    const stores = storesFrom(new InMemoryLearnerDataStore(), () => new InMemorySiteRows() as never);
    expect(stores.declared(ROWS)).toBe(stores.declared(ROWS));
    expect(() => stores.declared({ kind: 'stepRows', name: 'experiences' })).toThrow('store "experiences" is a siteRows store, not stepRows');
    const db = await openApprenticeDb({ factory: new IDBFactory() });
    const idb = idbLearnerStores(db, silentLogger);
    expect(idb.declared(TRANSITIONS)).toBeInstanceOf(IdbStepRowStore);
    expect((idb.declared(ROWS) as IdbSiteRows).name).toBe('experiences');
    expect(() => idb.declared({ kind: 'siteRows', name: 'tallies' })).toThrow('IndexedDB has no siteRows store "tallies"');
    db.close();
  });
});
