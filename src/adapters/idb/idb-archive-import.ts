/**
 * Writes a validated import in one IndexedDB transaction over every store it
 * touches, the registry learners' `learnerData` rows included: either all of
 * it is committed (strict durability) or, when any write fails, the
 * transaction aborts and every store is left as it was. Transitions replace
 * their episode's earlier rows, as putEpisode does.
 */
import type { ImportRows } from '../../core/learning/memory-transfer.ts';
import { STRICT, allOrNothing, isQuotaError, writing } from './durable-writes.ts';
import type { ApprenticeDb, ExperienceRow } from './open-database.ts';

export type { ImportRows };

export class ImportWriteError extends Error {
  override name = 'ImportWriteError';
}

export async function writeImportAtomically(db: ApprenticeDb, rows: ImportRows): Promise<void> {
  await writing('the import', async () => {
    const tx = db.transaction(['transitions', 'episodes', 'experiences', 'learnerData'], 'readwrite', STRICT);
    try {
      await allOrNothing(tx, async (push) => {
        const byEpisode = new Map<string, Set<string>>();
        for (const t of rows.transitions) byEpisode.set(t.episodeId, (byEpisode.get(t.episodeId) ?? new Set()).add(t.id));
        const transitions = tx.objectStore('transitions');
        for (const [episodeId, ids] of byEpisode) {
          for (const key of await transitions.index('byEpisode').getAllKeys(episodeId)) if (!ids.has(key)) push(transitions.delete(key));
        }
        for (const t of rows.transitions) push(transitions.put(t));
        for (const e of rows.episodes) push(tx.objectStore('episodes').put(e));
        for (const x of rows.experiences) push(tx.objectStore('experiences').put(x as unknown as ExperienceRow));
        for (const r of rows.learnerData) push(tx.objectStore('learnerData').put(r));
      });
    } catch (error) {
      if (isQuotaError(error)) throw error;
      throw new ImportWriteError(`nothing was imported: a write failed (${error instanceof Error ? `${error.name}: ${error.message}` : String(error)})`, { cause: error });
    }
  });
}
