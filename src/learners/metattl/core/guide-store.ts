/**
 * Where guide records live. In the extension and the benchmark: the generic
 * per-learner store (LearnerData, validated with GuideRecordSchema on every
 * read), one record per (site, task key). A Map-backed one for pure tests.
 */
import type { Clock } from '../../../core/ports.ts';
import { LearnerData } from '../../../core/learning/learner-data.ts';
import type { LearnerDataRecord, LearnerDataStore } from '../../../core/learning/learner-data-store.ts';
import { GuideRecordSchema, type GuideRecord } from './guide-record.ts';

export interface GuideStore {
  get(origin: string, key: string): Promise<GuideRecord | null>;
  put(record: GuideRecord): Promise<void>;
  /** Every record of one site, or of all sites when origin is omitted. */
  list(origin?: string): Promise<GuideRecord[]>;
}

/** The guide, with where it was imported from when it was. */
const withOrigin = (record: LearnerDataRecord<GuideRecord>): GuideRecord =>
  record.importedFrom !== undefined ? { ...record.value, importedFrom: record.importedFrom } : record.value;

/** Guide records in the generic learner store: origin = the site, key = the guide key. */
export class LearnerDataGuideStore implements GuideStore {
  readonly data: LearnerData<GuideRecord>;

  constructor(store: LearnerDataStore, learnerId: string, clock?: Clock) {
    this.data = new LearnerData(store, learnerId, GuideRecordSchema, clock);
  }

  async get(origin: string, key: string): Promise<GuideRecord | null> {
    const read = await this.data.get(origin, key);
    // An invalid record reads as none: the next attempt starts a fresh one over it.
    return read.status === 'found' ? withOrigin(read.record) : null;
  }

  async put(record: GuideRecord): Promise<void> {
    // A guide written here is this browser's own: where an earlier one was imported from no longer applies.
    const { importedFrom: _earlier, ...own } = record;
    await this.data.put(record.origin, record.key, own);
  }

  async list(origin?: string): Promise<GuideRecord[]> {
    return (await this.data.list(origin)).records.map(withOrigin);
  }
}

export class InMemoryGuideStore implements GuideStore {
  readonly #records = new Map<string, GuideRecord>();

  async get(_origin: string, key: string): Promise<GuideRecord | null> {
    return structuredClone(this.#records.get(key) ?? null);
  }

  async put(record: GuideRecord): Promise<void> {
    this.#records.set(record.key, structuredClone(record));
  }

  async list(origin?: string): Promise<GuideRecord[]> {
    return [...this.#records.values()].filter((r) => origin === undefined || r.origin === origin).map((r) => structuredClone(r));
  }
}
