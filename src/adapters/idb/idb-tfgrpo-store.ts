/**
 * Training-Free GRPO's state in IndexedDB (the tfgrpo* stores of
 * open-database.ts). A site's library is one row, so replacing it together
 * with its revision is one transaction. Rows are validated on the way out —
 * the database outlives the code that wrote it: a library row that does not
 * parse keeps its valid entries, a bad revision or group is skipped; both are
 * counted and logged.
 */
import type * as z from 'zod';
import { TfgrpoExperienceSchema, type TfgrpoExperience } from '../../core/learning/tfgrpo/experience.ts';
import { LibraryRevisionSchema, type LibraryRevision } from '../../core/learning/tfgrpo/library.ts';
import {
  MAX_REVISIONS_PER_SITE, PendingGroupSchema, type PendingGroup, type TfgrpoStore,
} from '../../core/learning/tfgrpo/tfgrpo-store.ts';
import { silentLogger, type Logger } from '../../core/ports.ts';
import { openApprenticeDb, type ApprenticeDb, type OpenApprenticeDbOptions, type TfgrpoRevisionRow } from './open-database.ts';

export class IdbTfgrpoStore implements TfgrpoStore {
  #corruptRows = 0;

  constructor(
    readonly db: ApprenticeDb,
    private readonly logger: Logger = silentLogger,
  ) {}

  static async open(options: OpenApprenticeDbOptions & { logger?: Logger } = {}): Promise<IdbTfgrpoStore> {
    return new IdbTfgrpoStore(await openApprenticeDb(options), options.logger ?? silentLogger);
  }

  get corruptRowsSkipped(): number {
    return this.#corruptRows;
  }

  async library(origin: string): Promise<TfgrpoExperience[]> {
    return this.#experiences(await this.db.get('tfgrpoLibraries', origin));
  }

  async saveLibrary(origin: string, library: TfgrpoExperience[], revision: LibraryRevision | null): Promise<void> {
    const tx = this.db.transaction(['tfgrpoLibraries', 'tfgrpoRevisions'], 'readwrite');
    const writes: Promise<unknown>[] = [tx.objectStore('tfgrpoLibraries').put({ origin, experiences: library })];
    if (revision) {
      const revisions = tx.objectStore('tfgrpoRevisions');
      writes.push(revisions.put(revision as unknown as TfgrpoRevisionRow));
      const keys = await revisions.index('byOrigin').getAllKeys(IDBKeyRange.bound([origin, -Infinity], [origin, Infinity]));
      // Oldest first by [origin, at]; requests run in order, so the new one is among them.
      for (const key of keys.slice(0, Math.max(0, keys.length - MAX_REVISIONS_PER_SITE))) writes.push(revisions.delete(key));
    }
    for (const w of writes) w.catch(() => undefined);
    await tx.done;
  }

  async latestRevision(origin: string): Promise<LibraryRevision | null> {
    const index = this.db.transaction('tfgrpoRevisions').store.index('byOrigin');
    let cursor = await index.openCursor(IDBKeyRange.bound([origin, -Infinity], [origin, Infinity]), 'prev');
    while (cursor) {
      const parsed = LibraryRevisionSchema.safeParse(cursor.value);
      if (parsed.success) return parsed.data;
      this.#skip('revision', cursor.value, parsed.error);
      cursor = await cursor.continue();
    }
    return null;
  }

  async undo(revision: LibraryRevision): Promise<void> {
    const tx = this.db.transaction(['tfgrpoLibraries', 'tfgrpoRevisions'], 'readwrite');
    const writes = [
      tx.objectStore('tfgrpoLibraries').put({ origin: revision.origin, experiences: revision.before }),
      tx.objectStore('tfgrpoRevisions').delete(revision.id),
    ];
    for (const w of writes) w.catch(() => undefined);
    await tx.done;
  }

  async pendingGroup(key: string): Promise<PendingGroup | null> {
    const row = await this.db.get('tfgrpoGroups', key);
    if (row === undefined) return null;
    const parsed = PendingGroupSchema.safeParse(row);
    if (parsed.success) return parsed.data;
    this.#skip('group', row, parsed.error);
    return null;
  }

  async savePendingGroup(group: PendingGroup): Promise<void> {
    await this.db.put('tfgrpoGroups', group);
  }

  async deletePendingGroup(key: string): Promise<void> {
    await this.db.delete('tfgrpoGroups', key);
  }

  async forgetSite(origin: string): Promise<number> {
    const tx = this.db.transaction(['tfgrpoLibraries', 'tfgrpoRevisions', 'tfgrpoGroups'], 'readwrite');
    const libraries = tx.objectStore('tfgrpoLibraries');
    const row = await libraries.get(origin);
    const n = Array.isArray(row?.experiences) ? row.experiences.length : 0;
    await libraries.delete(origin);
    const revisions = tx.objectStore('tfgrpoRevisions');
    for (const key of await revisions.index('byOrigin').getAllKeys(IDBKeyRange.bound([origin, -Infinity], [origin, Infinity]))) await revisions.delete(key);
    const groups = tx.objectStore('tfgrpoGroups');
    for (const key of await groups.index('byOrigin').getAllKeys(origin)) await groups.delete(key);
    await tx.done;
    return n;
  }

  async allExperiences(): Promise<TfgrpoExperience[]> {
    return (await this.db.getAll('tfgrpoLibraries')).flatMap((row) => this.#experiences(row));
  }

  #experiences(row: { experiences?: unknown } | undefined): TfgrpoExperience[] {
    if (!row || !Array.isArray(row.experiences)) return [];
    const out: TfgrpoExperience[] = [];
    for (const raw of row.experiences) {
      const parsed = TfgrpoExperienceSchema.safeParse(raw);
      if (parsed.success) out.push(parsed.data);
      else this.#skip('experience', raw, parsed.error);
    }
    return out;
  }

  #skip(what: string, row: unknown, error: z.ZodError): void {
    this.#corruptRows++;
    const id = typeof row === 'object' && row !== null && 'id' in row ? String((row as { id: unknown }).id) : '?';
    this.logger.warn(`skipped a corrupt Training-Free GRPO ${what}`, { id, issue: error.issues[0]?.message ?? '' });
  }
}
