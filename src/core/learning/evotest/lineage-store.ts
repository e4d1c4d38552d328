/**
 * Where EvoTest's lineages live: one record per site and task template. The
 * IndexedDB implementation is in src/adapters/idb/idb-lineage-store.ts; the
 * in-memory one serves tests and the benchmark.
 */
import type { Lineage } from './lineage.ts';

export interface LineageStore {
  get(key: string): Promise<Lineage | null>;
  put(lineage: Lineage): Promise<void>;
  /** Every lineage of one site, or of all sites. */
  list(origin?: string): Promise<Lineage[]>;
  delete(key: string): Promise<boolean>;
  forgetSite(origin: string): Promise<number>;
}

/** Copies on the way in and out, as IndexedDB does. */
export class InMemoryLineageStore implements LineageStore {
  private readonly rows = new Map<string, Lineage>();

  async get(key: string): Promise<Lineage | null> {
    const row = this.rows.get(key);
    return row ? structuredClone(row) : null;
  }

  async put(lineage: Lineage): Promise<void> {
    this.rows.set(lineage.key, structuredClone(lineage));
  }

  async list(origin?: string): Promise<Lineage[]> {
    return [...this.rows.values()].filter((l) => origin === undefined || l.origin === origin).map((l) => structuredClone(l));
  }

  async delete(key: string): Promise<boolean> {
    return this.rows.delete(key);
  }

  async forgetSite(origin: string): Promise<number> {
    let n = 0;
    for (const [key, l] of this.rows) if (l.origin === origin && this.rows.delete(key)) n++;
    return n;
  }
}
