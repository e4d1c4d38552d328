/**
 * CER's experience buffer in IndexedDB (the `experiences` store of
 * open-database.ts). Writes come from typed core code and are not
 * re-validated; every row read back is, because the database outlives the code
 * that wrote it: rows that do not parse are skipped, counted and logged.
 */
import { STRICT } from './durable-writes.ts';
import type { ExperienceStore } from '../../core/learning/cer/experience-store.ts';
import { ExperienceEntrySchema, type ExperienceEntry } from '../../core/learning/cer/experience.ts';
import { silentLogger, type Logger } from '../../core/ports.ts';
import { openApprenticeDb, type ApprenticeDb, type ExperienceRow, type OpenApprenticeDbOptions } from './open-database.ts';

export class IdbExperienceStore implements ExperienceStore {
  #corruptRows = 0;

  constructor(
    readonly db: ApprenticeDb,
    private readonly logger: Logger = silentLogger,
  ) {}

  static async open(options: OpenApprenticeDbOptions & { logger?: Logger } = {}): Promise<IdbExperienceStore> {
    return new IdbExperienceStore(await openApprenticeDb(options), options.logger ?? silentLogger);
  }

  /** Rows skipped on read because they failed validation, since this store was created. */
  get corruptRowsSkipped(): number {
    return this.#corruptRows;
  }

  close(): void {
    this.db.close();
  }

  async list(origin: string): Promise<ExperienceEntry[]> {
    return this.#valid(await this.db.getAllFromIndex('experiences', 'byOrigin', origin));
  }

  async putMany(entries: ExperienceEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const tx = this.db.transaction('experiences', 'readwrite', STRICT);
    const requests = entries.map((e) => tx.store.put(e as ExperienceRow));
    // One failure aborts the transaction; report it once, from tx.done.
    for (const r of requests) r.catch(() => undefined);
    await tx.done;
  }

  async delete(ids: string[]): Promise<number> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return 0;
    const tx = this.db.transaction('experiences', 'readwrite');
    let n = 0;
    for (const id of unique) {
      if ((await tx.store.getKey(id)) !== undefined) {
        await tx.store.delete(id);
        n++;
      }
    }
    await tx.done;
    return n;
  }

  async forgetSite(origin: string): Promise<number> {
    const tx = this.db.transaction('experiences', 'readwrite');
    const keys = await tx.store.index('byOrigin').getAllKeys(origin);
    for (const key of keys) await tx.store.delete(key);
    await tx.done;
    return keys.length;
  }

  async all(): Promise<ExperienceEntry[]> {
    return this.#valid(await this.db.getAll('experiences'));
  }

  #valid(rows: unknown[]): ExperienceEntry[] {
    const out: ExperienceEntry[] = [];
    for (const row of rows) {
      const parsed = ExperienceEntrySchema.safeParse(row);
      if (parsed.success) {
        out.push(parsed.data);
      } else {
        this.#corruptRows++;
        const id = typeof row === 'object' && row !== null && 'id' in row ? String((row as { id: unknown }).id) : '?';
        this.logger.warn('skipped a corrupt experience row', { id, issue: parsed.error.issues[0]?.message ?? '' });
      }
    }
    return out;
  }
}
