/**
 * The import write for the in-memory stores (tests, benchmark, offline demo),
 * with the same promise as IndexedDB's one transaction: all of it or nothing.
 * In memory the only write that can fail is the copy into a store, so every
 * row is copied first; the stores are touched only once that has succeeded,
 * and their in-memory writes cannot fail part-way.
 */
import type { EpisodeStore } from '../episode/episode-store.ts';
import type { MemoryStore } from '../memory/memory-store.ts';
import type { ExperienceStore } from './cer/experience-store.ts';
import type { LearnerDataStore } from './learner-data-store.ts';
import type { ImportRows } from './memory-transfer.ts';

export interface InMemoryImportStores {
  memory: MemoryStore;
  episodes: EpisodeStore;
  experiences: ExperienceStore;
  learnerData: LearnerDataStore;
}

export class InMemoryImportError extends Error {
  override name = 'InMemoryImportError';
}

export function inMemoryImportWriter(stores: InMemoryImportStores): (rows: ImportRows) => Promise<void> {
  return async (rows) => {
    let copy: ImportRows;
    try {
      copy = structuredClone(rows);
    } catch (error) {
      throw new InMemoryImportError(`nothing was imported: a row cannot be stored (${error instanceof Error ? error.message : String(error)})`, { cause: error });
    }
    // Transitions replace their episode's earlier rows, as in IndexedDB.
    const byEpisode = new Map<string, ImportRows['transitions']>();
    for (const t of copy.transitions) byEpisode.set(t.episodeId, [...(byEpisode.get(t.episodeId) ?? []), t]);
    for (const [episodeId, transitions] of byEpisode) await stores.memory.putEpisode(episodeId, transitions);
    for (const e of copy.episodes) await stores.episodes.put(e);
    if (copy.experiences.length > 0) await stores.experiences.putMany(copy.experiences);
    if (copy.learnerData.length > 0) await stores.learnerData.import(copy.learnerData);
  };
}
