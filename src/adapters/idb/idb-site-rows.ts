/**
 * A learner's own store of site rows in IndexedDB (the `experiences` object
 * store of open-database.ts, keyPath id, index byOrigin). It stores and
 * returns rows as they are: the learner that keeps them validates what it
 * reads, so this adapter names no learner.
 */
import { STRICT } from './durable-writes.ts';
import type { SiteRow, SiteRowStore } from '../../core/stores/site-rows.ts';
import { openApprenticeDb, type ApprenticeDb, type SiteRowRecord, type OpenApprenticeDbOptions } from './open-database.ts';

/** The object stores that hold site rows (keyPath id, index byOrigin). */
export type SiteRowStoreName = 'experiences';

export class IdbSiteRows implements SiteRowStore {
  constructor(
    readonly db: ApprenticeDb,
    readonly name: SiteRowStoreName,
  ) {}

  static async open(name: SiteRowStoreName, options: OpenApprenticeDbOptions = {}): Promise<IdbSiteRows> {
    return new IdbSiteRows(await openApprenticeDb(options), name);
  }

  close(): void {
    this.db.close();
  }

  async list(origin: string): Promise<unknown[]> {
    return this.db.getAllFromIndex(this.name, 'byOrigin', origin);
  }

  async putMany(rows: readonly SiteRow[]): Promise<void> {
    if (rows.length === 0) return;
    const tx = this.db.transaction(this.name, 'readwrite', STRICT);
    // Rows come from the learner's typed code; the object store's row type is its own.
    const requests = rows.map((r) => tx.store.put(r as SiteRowRecord));
    // One failure aborts the transaction; report it once, from tx.done.
    for (const r of requests) r.catch(() => undefined);
    await tx.done;
  }

  async delete(ids: readonly string[]): Promise<number> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return 0;
    const tx = this.db.transaction(this.name, 'readwrite');
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
    const tx = this.db.transaction(this.name, 'readwrite');
    const keys = await tx.store.index('byOrigin').getAllKeys(origin);
    for (const key of keys) await tx.store.delete(key);
    await tx.done;
    return keys.length;
  }

  async all(): Promise<unknown[]> {
    return this.db.getAll(this.name);
  }
}
