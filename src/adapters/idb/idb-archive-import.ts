/**
 * Writes a validated import in one IndexedDB transaction over every store it
 * touches: either all of it is committed (strict durability) or, when any
 * write fails, the transaction aborts and every store is left as it was.
 * Transitions replace their episode's earlier rows, as putEpisode does.
 */
import type { Episode } from '../../core/agent/episode.ts';
import type { ExperienceEntry } from '../../core/learning/cer/experience.ts';
import type { Transition } from '../../core/memory/transition.ts';
import { STRICT, writing } from './durable-writes.ts';
import type { ApprenticeDb, ExperienceRow } from './open-database.ts';

export interface ImportRows {
  transitions: Transition[];
  episodes: Episode[];
  experiences: ExperienceEntry[];
}

export class ImportWriteError extends Error {
  override name = 'ImportWriteError';
}

export async function writeImportAtomically(db: ApprenticeDb, rows: ImportRows): Promise<void> {
  await writing('the import', async () => {
    const tx = db.transaction(['transitions', 'episodes', 'experiences'], 'readwrite', STRICT);
    const requests: Promise<unknown>[] = [];
    const work = (async () => {
      const byEpisode = new Map<string, Set<string>>();
      for (const t of rows.transitions) byEpisode.set(t.episodeId, (byEpisode.get(t.episodeId) ?? new Set()).add(t.id));
      const transitions = tx.objectStore('transitions');
      for (const [episodeId, ids] of byEpisode) {
        for (const key of await transitions.index('byEpisode').getAllKeys(episodeId)) if (!ids.has(key)) requests.push(transitions.delete(key));
      }
      try {
        for (const t of rows.transitions) requests.push(transitions.put(t));
        for (const e of rows.episodes) requests.push(tx.objectStore('episodes').put(e));
        for (const x of rows.experiences) requests.push(tx.objectStore('experiences').put(x as unknown as ExperienceRow));
      } finally {
        // After an abort every pending request rejects; the failure is reported once, below.
        for (const r of requests) r.catch(() => undefined);
      }
      await Promise.all(requests);
    })();
    try {
      await Promise.all([work, tx.done]);
    } catch (error) {
      try { tx.abort(); } catch { /* already aborted */ }
      await tx.done.catch(() => undefined);
      if (error instanceof Error && /quota/i.test(`${error.name} ${error.message}`)) throw error;
      throw new ImportWriteError(`nothing was imported: a write failed (${error instanceof Error ? `${error.name}: ${error.message}` : String(error)})`, { cause: error });
    }
  });
}
