/**
 * The generic per-learner store: a learner keeps whatever it learns as JSON
 * records addressed by (learnerId, origin, key), so a new learner needs no
 * IndexedDB schema change. The store itself does not know any learner's
 * shape; a learner reads its records through `LearnerData` (learner-data.ts),
 * which validates each value with the learner's own zod schema.
 *
 * Implementations: `InMemoryLearnerDataStore` (tests, benchmark, demo) and
 * `IdbLearnerDataStore` (src/adapters/idb, the `learnerData` object store).
 */
import * as z from 'zod';

/** The origin of records that belong to no site (a meta-prompt shared by all sites, say). */
export const GLOBAL_ORIGIN = '*';

/** Where one record lives. `origin` is a site origin or GLOBAL_ORIGIN. */
export interface LearnerDataAddress {
  learnerId: string;
  origin: string;
  key: string;
}

export interface LearnerDataRecord<T = unknown> extends LearnerDataAddress {
  /** JSON only: it is exported as is. */
  value: T;
  /** ms since the epoch, when the record was last written. */
  updatedAt: number;
  /**
   * Where the record came from when it was imported ("an archive exported
   * 2026-11-24", "team memory, shared by Ada"), for the panel. Set by the
   * import itself, never taken from the file; gone once this browser writes
   * the record again.
   */
  importedFrom?: string;
}

/** The envelope every stored or imported row must have; the value is checked by the learner's schema. */
export const LearnerDataRecordSchema = z.strictObject({
  learnerId: z.string().min(1),
  origin: z.string().min(1),
  key: z.string().min(1),
  value: z.json(),
  updatedAt: z.number().finite(),
  importedFrom: z.string().min(1).max(300).optional(),
});

/** A record that does not match the envelope or the learner's schema: reported, never thrown at a reader. */
export class InvalidLearnerDataError extends Error {
  override name = 'InvalidLearnerDataError';
  constructor(
    /** Where the bad record is (as far as it could be read). */
    readonly address: LearnerDataAddress,
    /** What is wrong, for a person. */
    readonly reason: string,
  ) {
    super(`learner data ${address.learnerId}/${address.origin}/${address.key}: ${reason}`);
  }
}

/**
 * The port the adapters implement. Values are untyped here: reads return
 * whatever was stored (rows whose envelope is broken are skipped by the
 * implementation); `LearnerData` validates values against the learner's schema.
 */
export interface LearnerDataStore {
  /** The record at this address, or null. */
  get(address: LearnerDataAddress): Promise<LearnerDataRecord | null>;
  /** Inserts or replaces the record at its address. */
  put(record: LearnerDataRecord): Promise<void>;
  /** Deletes one record; true when it existed. */
  delete(address: LearnerDataAddress): Promise<boolean>;
  /** One learner's records (of one origin when given), ordered by origin, then key. */
  list(learnerId: string, origin?: string): Promise<LearnerDataRecord[]>;
  /** Deletes every record of an origin (only this learner's when `learnerId` is given); returns how many went. */
  forgetSite(origin: string, learnerId?: string): Promise<number>;
  /** Every record of a learner, for an export (same order as `list`). */
  exportAll(learnerId: string): Promise<LearnerDataRecord[]>;
  /** Writes records (replacing same addresses) in one transaction; returns how many. Callers validate first. */
  import(records: readonly LearnerDataRecord[]): Promise<number>;
}

/** Orders records as IndexedDB orders the [learnerId, origin, key] key path. */
export function compareLearnerDataAddress(a: LearnerDataAddress, b: LearnerDataAddress): number {
  for (const field of ['learnerId', 'origin', 'key'] as const) {
    if (a[field] < b[field]) return -1;
    if (a[field] > b[field]) return 1;
  }
  return 0;
}
