/**
 * Writes a validated import in one IndexedDB transaction over every store it
 * touches, the registry learners' `learnerData` rows included: either all of
 * it is committed (strict durability) or, when any write fails, the
 * transaction aborts and every store is left as it was.
 *
 * With an import id, the import's outcome is written in the same transaction
 * (meta store, `import:<id>`), so it can be read after a worker restart.
 *
 * The learners' own stores (LearnerMemory.ownStore) are reached by name:
 * this adapter knows how each of its object stores takes rows, not which
 * learner keeps it.
 */
import type { ImportRows } from '../../core/learning/memory-transfer.ts';
import type { StepRow } from '../../core/stores/step-rows.ts';
import { STRICT, allOrNothing, isQuotaError, writing } from './durable-writes.ts';
import type { IDBPTransaction } from 'idb';
import { parseStoredOutcome, type ImportOutcome, type ImportOutcomes } from '../../core/archive/import-outcome.ts';
import type { ApprenticeDb, ApprenticeDbSchema, SiteRowRecord } from './open-database.ts';

export type { ImportRows };

export class ImportWriteError extends Error {
  override name = 'ImportWriteError';
}

const IMPORT_STORES = ['transitions', 'episodes', 'experiences', 'learnerData', 'meta'] as const;
const outcomeKey = (importId: string): string => `import:${importId}`;
type Tx = IDBPTransaction<ApprenticeDbSchema, typeof IMPORT_STORES extends readonly (infer N)[] ? N[] : never, 'readwrite'>;
type Push = (request: Promise<unknown>) => void;

/** How each own store takes imported rows (validated by the learner's prepareImport before they get here). */
const OWN_STORE_WRITERS: Readonly<Record<string, (tx: Tx, rows: readonly unknown[], push: Push) => Promise<void>>> = {
  // Transitions replace their episode's earlier rows, as putEpisode does.
  transitions: async (tx, rows, push) => {
    const transitions = rows as readonly StepRow[];
    const byEpisode = new Map<string, Set<string>>();
    for (const t of transitions) byEpisode.set(t.episodeId, (byEpisode.get(t.episodeId) ?? new Set()).add(t.id));
    const store = tx.objectStore('transitions');
    for (const [episodeId, ids] of byEpisode) {
      for (const key of await store.index('byEpisode').getAllKeys(episodeId)) if (!ids.has(key)) push(store.delete(key));
    }
    for (const t of transitions) push(store.put(t));
  },
  experiences: async (tx, rows, push) => {
    for (const x of rows) push(tx.objectStore('experiences').put(x as SiteRowRecord));
  },
};

export async function writeImportAtomically(db: ApprenticeDb, rows: ImportRows): Promise<void> {
  const unknown = rows.own.filter((o) => OWN_STORE_WRITERS[o.store] === undefined).map((o) => o.store);
  if (unknown.length > 0) throw new ImportWriteError(`nothing was imported: this database has no store ${unknown.join(', ')}`);
  await writing('the import', async () => {
    const tx = db.transaction([...IMPORT_STORES], 'readwrite', STRICT);
    try {
      await allOrNothing(tx, async (push) => {
        for (const own of rows.own) await OWN_STORE_WRITERS[own.store]!(tx, own.rows, push);
        for (const e of rows.episodes) push(tx.objectStore('episodes').put(e));
        for (const r of rows.learnerData) push(tx.objectStore('learnerData').put(r));
        // The outcome commits with the data: it is there exactly when the import landed.
        if (rows.outcome) push(tx.objectStore('meta').put(rows.outcome, outcomeKey(rows.outcome.importId)));
      });
    } catch (error) {
      if (isQuotaError(error)) throw error;
      throw new ImportWriteError(`nothing was imported: a write failed (${error instanceof Error ? `${error.name}: ${error.message}` : String(error)})`, { cause: error });
    }
  });
}

/** Imports' outcomes by id, in the meta store (read after a worker restart lost an import's reply). */
export function idbImportOutcomes(db: ApprenticeDb): ImportOutcomes {
  return {
    get: async (importId) => parseStoredOutcome(importId, await db.get('meta', outcomeKey(importId))),
    put: (outcome: ImportOutcome) => writing('the import\'s outcome', async () => {
      const tx = db.transaction('meta', 'readwrite', STRICT);
      await Promise.all([tx.objectStore('meta').put(outcome, outcomeKey(outcome.importId)), tx.done]);
    }),
  };
}
