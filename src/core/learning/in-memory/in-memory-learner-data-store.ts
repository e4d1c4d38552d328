/**
 * LearnerDataStore in memory, for tests, the benchmark and the offline demo.
 * Copies on the way in and out, so callers never share state with the store
 * (as with IndexedDB).
 */
import {
  compareLearnerDataAddress,
  type LearnerDataAddress,
  type LearnerDataRecord,
  type LearnerDataStore,
} from '../learner-data-store.ts';

const keyOf = (a: LearnerDataAddress): string => JSON.stringify([a.learnerId, a.origin, a.key]);

export class InMemoryLearnerDataStore implements LearnerDataStore {
  private readonly rows = new Map<string, LearnerDataRecord>();

  async get(address: LearnerDataAddress): Promise<LearnerDataRecord | null> {
    const row = this.rows.get(keyOf(address));
    return row ? structuredClone(row) : null;
  }

  async put(record: LearnerDataRecord): Promise<void> {
    this.rows.set(keyOf(record), structuredClone(record));
  }

  async delete(address: LearnerDataAddress): Promise<boolean> {
    return this.rows.delete(keyOf(address));
  }

  async list(learnerId: string, origin?: string): Promise<LearnerDataRecord[]> {
    return [...this.rows.values()]
      .filter((r) => r.learnerId === learnerId && (origin === undefined || r.origin === origin))
      .sort(compareLearnerDataAddress)
      .map((r) => structuredClone(r));
  }

  async forgetSite(origin: string, learnerId?: string): Promise<number> {
    let n = 0;
    for (const [k, r] of this.rows) {
      if (r.origin === origin && (learnerId === undefined || r.learnerId === learnerId)) {
        this.rows.delete(k);
        n++;
      }
    }
    return n;
  }

  async exportAll(learnerId: string): Promise<LearnerDataRecord[]> {
    return this.list(learnerId);
  }

  async import(records: readonly LearnerDataRecord[]): Promise<number> {
    for (const r of records) await this.put(r);
    return records.length;
  }
}
