/** Where guide records live: IndexedDB in the extension, a Map in tests and the benchmark. */
import type { GuideRecord } from './guide-record.ts';

export interface GuideStore {
  get(key: string): Promise<GuideRecord | null>;
  put(record: GuideRecord): Promise<void>;
  /** Every record of one site, or of all sites when origin is omitted. */
  list(origin?: string): Promise<GuideRecord[]>;
  /** Removes one site's records (or all); returns how many went. */
  forget(origin?: string): Promise<number>;
}

export class InMemoryGuideStore implements GuideStore {
  readonly #records = new Map<string, GuideRecord>();

  async get(key: string): Promise<GuideRecord | null> {
    return structuredClone(this.#records.get(key) ?? null);
  }

  async put(record: GuideRecord): Promise<void> {
    this.#records.set(record.key, structuredClone(record));
  }

  async list(origin?: string): Promise<GuideRecord[]> {
    return [...this.#records.values()].filter((r) => origin === undefined || r.origin === origin).map((r) => structuredClone(r));
  }

  async forget(origin?: string): Promise<number> {
    let n = 0;
    for (const [key, r] of this.#records) {
      if (origin === undefined || r.origin === origin) {
        this.#records.delete(key);
        n++;
      }
    }
    return n;
  }
}
