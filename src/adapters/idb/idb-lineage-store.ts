/**
 * EvoTest's lineages in IndexedDB (the `lineages` store of open-database.ts).
 * Every record read back is validated: the database outlives the code that
 * wrote it, and a record that does not parse is skipped, counted and logged.
 */
import { LineageSchema, type Lineage } from '../../core/learning/evotest/lineage.ts';
import type { LineageStore } from '../../core/learning/evotest/lineage-store.ts';
import { silentLogger, type Logger } from '../../core/ports.ts';
import type { ApprenticeDb } from './open-database.ts';

export class IdbLineageStore implements LineageStore {
  #corruptRows = 0;

  constructor(
    readonly db: ApprenticeDb,
    private readonly logger: Logger = silentLogger,
  ) {}

  get corruptRowsSkipped(): number {
    return this.#corruptRows;
  }

  async get(key: string): Promise<Lineage | null> {
    const row: unknown = await this.db.get('lineages', key);
    return row === undefined ? null : (this.#valid([row])[0] ?? null);
  }

  async put(lineage: Lineage): Promise<void> {
    await this.db.put('lineages', lineage);
  }

  async list(origin?: string): Promise<Lineage[]> {
    const rows = origin === undefined ? await this.db.getAll('lineages') : await this.db.getAllFromIndex('lineages', 'byOrigin', origin);
    return this.#valid(rows);
  }

  async delete(key: string): Promise<boolean> {
    const tx = this.db.transaction('lineages', 'readwrite');
    const existed = (await tx.store.getKey(key)) !== undefined;
    if (existed) await tx.store.delete(key);
    await tx.done;
    return existed;
  }

  async forgetSite(origin: string): Promise<number> {
    const tx = this.db.transaction('lineages', 'readwrite');
    const keys = await tx.store.index('byOrigin').getAllKeys(origin);
    for (const key of keys) await tx.store.delete(key);
    await tx.done;
    return keys.length;
  }

  #valid(rows: unknown[]): Lineage[] {
    const out: Lineage[] = [];
    for (const row of rows) {
      const parsed = LineageSchema.safeParse(row);
      if (parsed.success) {
        out.push(parsed.data);
      } else {
        this.#corruptRows++;
        const key = typeof row === 'object' && row !== null && 'key' in row ? String((row as { key: unknown }).key) : '?';
        this.logger.warn('skipped a corrupt EvoTest lineage', { key, issue: parsed.error.issues[0]?.message ?? '' });
      }
    }
    return out;
  }
}
