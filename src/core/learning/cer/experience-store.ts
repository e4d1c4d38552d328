/**
 * Where CER's buffer lives. The IndexedDB implementation is in
 * src/adapters/idb/idb-experience-store.ts; the in-memory one serves tests,
 * the benchmark and the offline demo.
 */
import type { ExperienceEntry } from './experience.ts';

export interface ExperienceStore {
  /** All entries of one site (dynamics and skills), in no particular order. */
  list(origin: string): Promise<ExperienceEntry[]>;
  /** Inserts or replaces by id, all in one transaction. */
  putMany(entries: ExperienceEntry[]): Promise<void>;
  /** Deletes by id; returns how many existed. */
  delete(ids: string[]): Promise<number>;
  forgetSite(origin: string): Promise<number>;
  all(): Promise<ExperienceEntry[]>;
}

/** Copies on the way in and out, so callers never share state with the store (as with IndexedDB). */
export class InMemoryExperienceStore implements ExperienceStore {
  private readonly rows = new Map<string, ExperienceEntry>();

  async list(origin: string): Promise<ExperienceEntry[]> {
    return [...this.rows.values()].filter((e) => e.origin === origin).map((e) => structuredClone(e));
  }

  async putMany(entries: ExperienceEntry[]): Promise<void> {
    for (const e of entries) this.rows.set(e.id, structuredClone(e));
  }

  async delete(ids: string[]): Promise<number> {
    let n = 0;
    for (const id of new Set(ids)) if (this.rows.delete(id)) n++;
    return n;
  }

  async forgetSite(origin: string): Promise<number> {
    let n = 0;
    for (const [id, e] of this.rows) {
      if (e.origin === origin) {
        this.rows.delete(id);
        n++;
      }
    }
    return n;
  }

  async all(): Promise<ExperienceEntry[]> {
    return [...this.rows.values()].map((e) => structuredClone(e));
  }
}
