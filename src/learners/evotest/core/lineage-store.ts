/**
 * Where EvoTest's lineages live: one record per site and task template in the
 * generic per-learner store (LearnerDataStore, address (evotest, origin,
 * template)), read back through EvoTest's lineage schema. Records that no
 * longer parse are skipped on read (LearnerData reports them) rather than
 * breaking an episode.
 */
import type { Clock } from '../../../core/ports.ts';
import { LearnerData } from '../../../core/learning/learner-data.ts';
import type { LearnerDataRecord, LearnerDataStore } from '../../../core/learning/learner-data-store.ts';
import { LineageSchema, type Lineage } from './lineage.ts';

export const EVOTEST_DATA_ID = 'evotest';

export interface LineageStore {
  get(key: string): Promise<Lineage | null>;
  put(lineage: Lineage): Promise<void>;
  /** Every lineage of one site, or of all sites. */
  list(origin?: string): Promise<Lineage[]>;
  delete(key: string): Promise<boolean>;
  forgetSite(origin: string): Promise<number>;
}

/** A lineage key is `${origin} ${template}`; origins hold no spaces. */
function splitKey(key: string): { origin: string; template: string } {
  const at = key.indexOf(' ');
  return at < 0 ? { origin: key, template: '' } : { origin: key.slice(0, at), template: key.slice(at + 1) };
}

/** The lineage, with where it was imported from when it was (an imported lineage's guidance shows its origin). */
const withOrigin = (record: LearnerDataRecord<Lineage>): Lineage =>
  record.importedFrom !== undefined ? { ...record.value, importedFrom: record.importedFrom } : record.value;

/** EvoTest's typed view of the per-learner store. */
export function lineageDataOn(store: LearnerDataStore, clock?: Clock): LearnerData<Lineage> {
  return new LearnerData(store, EVOTEST_DATA_ID, LineageSchema, clock);
}

// An empty template would be an empty record key, which the store refuses.
const recordKey = (template: string): string => template || '(any task)';

export function lineageStoreOn(store: LearnerDataStore, clock?: Clock): LineageStore {
  const data = lineageDataOn(store, clock);
  return {
    async get(key) {
      const { origin, template } = splitKey(key);
      const read = await data.get(origin, recordKey(template));
      return read.status === 'found' ? withOrigin(read.record) : null;
    },
    async put(lineage) {
      // Evolved here, it is this browser's own: where an earlier version was imported from no longer applies.
      const { importedFrom: _earlier, ...own } = lineage;
      await data.put(lineage.origin, recordKey(lineage.template), own);
    },
    async list(origin) {
      return (await data.list(origin)).records.map(withOrigin);
    },
    async delete(key) {
      const { origin, template } = splitKey(key);
      return data.delete(origin, recordKey(template));
    },
    forgetSite: (origin) => data.forgetSite(origin),
  };
}
