/**
 * The generic per-learner store in IndexedDB (the `learnerData` object store
 * of open-database.ts, keyPath [learnerId, origin, key]). A learner's list is
 * one bounded range of the primary key; forgetting a site is the byOrigin
 * index. Rows whose envelope does not parse are skipped, counted and logged;
 * values are validated by the learner's own schema in core (learner-data.ts).
 */
import {
  LearnerDataRecordSchema,
  type LearnerDataAddress,
  type LearnerDataRecord,
  type LearnerDataStore,
} from '../../core/learning/learner-data-store.ts';
import { silentLogger, type Logger } from '../../core/ports.ts';
import { openApprenticeDb, type ApprenticeDb, type OpenApprenticeDbOptions } from './open-database.ts';

/** Sorts above every string in IndexedDB key order (arrays sort last). */
const AFTER_ALL: never[] = [];

const keyOf = (a: LearnerDataAddress): [string, string, string] => [a.learnerId, a.origin, a.key];

export class IdbLearnerDataStore implements LearnerDataStore {
  #corruptRows = 0;

  constructor(
    readonly db: ApprenticeDb,
    private readonly logger: Logger = silentLogger,
  ) {}

  static async open(options: OpenApprenticeDbOptions & { logger?: Logger } = {}): Promise<IdbLearnerDataStore> {
    return new IdbLearnerDataStore(await openApprenticeDb(options), options.logger ?? silentLogger);
  }

  /** Rows skipped on read because their envelope failed validation, since this store was created. */
  get corruptRowsSkipped(): number {
    return this.#corruptRows;
  }

  close(): void {
    this.db.close();
  }

  async get(address: LearnerDataAddress): Promise<LearnerDataRecord | null> {
    const row: unknown = await this.db.get('learnerData', keyOf(address));
    return row === undefined ? null : this.#parse(row);
  }

  async put(record: LearnerDataRecord): Promise<void> {
    await this.db.put('learnerData', record);
  }

  async delete(address: LearnerDataAddress): Promise<boolean> {
    const tx = this.db.transaction('learnerData', 'readwrite');
    const key = keyOf(address);
    const existed = (await tx.store.count(key)) > 0;
    if (existed) await tx.store.delete(key);
    await tx.done;
    return existed;
  }

  async list(learnerId: string, origin?: string): Promise<LearnerDataRecord[]> {
    const range = origin === undefined
      ? IDBKeyRange.bound([learnerId], [learnerId, AFTER_ALL])
      : IDBKeyRange.bound([learnerId, origin], [learnerId, origin, AFTER_ALL]);
    return this.#parseAll(await this.db.getAll('learnerData', range));
  }

  async forgetSite(origin: string, learnerId?: string): Promise<number> {
    const tx = this.db.transaction('learnerData', 'readwrite');
    const keys = learnerId === undefined
      ? await tx.store.index('byOrigin').getAllKeys(origin)
      : await tx.store.getAllKeys(IDBKeyRange.bound([learnerId, origin], [learnerId, origin, AFTER_ALL]));
    await Promise.all(keys.map((key) => tx.store.delete(key)));
    await tx.done;
    return keys.length;
  }

  async exportAll(learnerId: string): Promise<LearnerDataRecord[]> {
    return this.list(learnerId);
  }

  async import(records: readonly LearnerDataRecord[]): Promise<number> {
    if (records.length === 0) return 0;
    const tx = this.db.transaction('learnerData', 'readwrite');
    const requests = records.map((r) => tx.store.put(r));
    // One failure aborts the transaction; report it once, from tx.done.
    for (const r of requests) r.catch(() => undefined);
    await tx.done;
    return records.length;
  }

  #parseAll(rows: unknown[]): LearnerDataRecord[] {
    const out: LearnerDataRecord[] = [];
    for (const row of rows) {
      const record = this.#parse(row);
      if (record) out.push(record);
    }
    return out;
  }

  #parse(row: unknown): LearnerDataRecord | null {
    const parsed = LearnerDataRecordSchema.safeParse(row);
    if (parsed.success) return parsed.data as LearnerDataRecord;
    this.#corruptRows++;
    const key = typeof row === 'object' && row !== null ? ['learnerId', 'origin', 'key'].map((k) => String((row as Record<string, unknown>)[k])).join('/') : '?';
    this.logger.warn('skipped a corrupt learner data row', { key, issue: parsed.error.issues[0]?.message ?? 'invalid' });
    return null;
  }
}
