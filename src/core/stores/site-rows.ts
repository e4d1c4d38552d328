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
