/**
 * The import write for the in-memory stores (tests, benchmark, offline demo),
 * with the same promise as IndexedDB's one transaction: all of it or nothing.
 * In memory the only write that can fail is the copy into a store, so every
 * row is copied first; the stores are touched only once that has succeeded,
 * and their in-memory writes cannot fail part-way. The learners' own stores
 * are written through their memory (LearnerMemory.ownStore), found by name.
 */
import type { EpisodeStore } from '../../episode/episode-store.ts';
import type { LearnerMemory } from '../learner-definition.ts';
import type { LearnerDataStore } from '../learner-data-store.ts';
import type { ImportRows } from '../memory-transfer.ts';

export interface InMemoryImportStores {
  episodes: EpisodeStore;
  learnerData: LearnerDataStore;
}

export class InMemoryImportError extends Error {
  override name = 'InMemoryImportError';
}

export function inMemoryImportWriter(
  stores: InMemoryImportStores,
  learnerMemories: readonly { memory: Pick<LearnerMemory, 'ownStore'> }[],
): (rows: ImportRows) => Promise<void> {
  return async (rows) => {
    const ownStores = new Map(learnerMemories.flatMap(({ memory }) => (memory.ownStore ? [[memory.ownStore.name, memory.ownStore] as const] : [])));
    const unknown = rows.own.filter((o) => !ownStores.has(o.store)).map((o) => o.store);
    if (unknown.length > 0) throw new InMemoryImportError(`nothing was imported: no learner keeps the store ${unknown.join(', ')}`);
    let copy: ImportRows;
    try {
      copy = structuredClone(rows);
    } catch (error) {
      throw new InMemoryImportError(`nothing was imported: a row cannot be stored (${error instanceof Error ? error.message : String(error)})`, { cause: error });
    }
    for (const own of copy.own) if (own.rows.length > 0) await ownStores.get(own.store)!.write(own.rows);
    for (const e of copy.episodes) await stores.episodes.put(e);
    if (copy.learnerData.length > 0) await stores.learnerData.import(copy.learnerData);
  };
}
