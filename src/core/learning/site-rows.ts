/**
 * A store of rows addressed by id and site that a learner keeps of its own
 * (a buffer that predates the generic learner-data store). It keeps what it is
 * given and returns what it holds; the learner validates what it reads (the
 * database outlives the code that wrote it), so a storage adapter needs no
 * learner's schema and names no learner.
 */
export interface SiteRow {
  id: string;
  origin: string;
}

export interface SiteRowStore {
  /** Every row of one site, in no particular order. */
  list(origin: string): Promise<unknown[]>;
  /** Inserts or replaces by id, all in one transaction. */
  putMany(rows: readonly SiteRow[]): Promise<void>;
  /** Deletes by id; returns how many existed. */
  delete(ids: readonly string[]): Promise<number>;
  forgetSite(origin: string): Promise<number>;
  all(): Promise<unknown[]>;
}

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
