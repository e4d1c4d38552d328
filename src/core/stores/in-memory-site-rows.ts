/** A siteRows store in memory (site-rows.ts), for the benchmark and tests. */
import type { SiteRow, SiteRowStore } from './site-rows.ts';

/** Copies on the way in and out, so callers never share state with the store (as with IndexedDB). */
export class InMemorySiteRows implements SiteRowStore {
  readonly #rows = new Map<string, SiteRow>();

  async list(origin: string): Promise<unknown[]> {
    return [...this.#rows.values()].filter((r) => r.origin === origin).map((r) => structuredClone(r));
  }

  async putMany(rows: readonly SiteRow[]): Promise<void> {
    for (const r of rows) this.#rows.set(r.id, structuredClone(r));
  }

  async delete(ids: readonly string[]): Promise<number> {
    let n = 0;
    for (const id of new Set(ids)) if (this.#rows.delete(id)) n++;
    return n;
  }

  async forgetSite(origin: string): Promise<number> {
    let n = 0;
    for (const [id, r] of this.#rows) {
      if (r.origin !== origin) continue;
      this.#rows.delete(id);
      n++;
    }
    return n;
  }

  async all(): Promise<unknown[]> {
    return [...this.#rows.values()].map((r) => structuredClone(r));
  }
}
