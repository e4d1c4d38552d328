/**
 * Meta-TTL's guide records in IndexedDB (the `guides` store of
 * open-database.ts). Every row read back is validated: rows that do not parse
 * are skipped, counted and logged, never handed to the learner.
 */
import { GuideRecordSchema, type GuideRecord } from '../../core/learning/metattl/guide-record.ts';
import type { GuideStore } from '../../core/learning/metattl/guide-store.ts';
import { silentLogger, type Logger } from '../../core/ports.ts';
import { openApprenticeDb, type ApprenticeDb, type OpenApprenticeDbOptions } from './open-database.ts';

export class IdbGuideStore implements GuideStore {
  #corruptRows = 0;

  constructor(
    readonly db: ApprenticeDb,
    private readonly logger: Logger = silentLogger,
  ) {}

  static async open(options: OpenApprenticeDbOptions & { logger?: Logger } = {}): Promise<IdbGuideStore> {
    return new IdbGuideStore(await openApprenticeDb(options), options.logger ?? silentLogger);
  }

  get corruptRowsSkipped(): number {
    return this.#corruptRows;
  }

  async get(key: string): Promise<GuideRecord | null> {
    const row = await this.db.get('guides', key);
    return row === undefined ? null : (this.#valid([row])[0] ?? null);
  }

  async put(record: GuideRecord): Promise<void> {
    await this.db.put('guides', record);
  }

  async list(origin?: string): Promise<GuideRecord[]> {
    const rows = origin === undefined ? await this.db.getAll('guides') : await this.db.getAllFromIndex('guides', 'byOrigin', origin);
    return this.#valid(rows);
  }

  async forget(origin?: string): Promise<number> {
    const tx = this.db.transaction('guides', 'readwrite');
    const keys = origin === undefined ? await tx.store.getAllKeys() : await tx.store.index('byOrigin').getAllKeys(origin);
    for (const key of keys) await tx.store.delete(key);
    await tx.done;
    return keys.length;
  }

  #valid(rows: unknown[]): GuideRecord[] {
    const out: GuideRecord[] = [];
    for (const row of rows) {
      const parsed = GuideRecordSchema.safeParse(row);
      if (parsed.success) out.push(parsed.data);
      else {
        this.#corruptRows++;
        const key = typeof row === 'object' && row !== null && 'key' in row ? String((row as { key: unknown }).key) : '?';
        this.logger.warn('skipped a corrupt guide row', { key, issue: parsed.error.issues[0]?.message ?? '' });
      }
    }
    return out;
  }
}
