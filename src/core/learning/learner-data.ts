/**
 * One learner's view of the LearnerDataStore: its id and the zod schema of its
 * values are fixed, so reads come back typed. Every value read is validated
 * (the database outlives the code that wrote it): a bad record becomes an
 * `InvalidLearnerDataError` in the result, never an exception at the reader.
 * Writes are normalised through JSON (what is stored is exactly what an export
 * holds) and validated too, so a learner cannot store what it could not read.
 */
import * as z from 'zod';
import { systemClock, type Clock } from '../ports.ts';
import type { LearnerMemory } from './learner-definition.ts';
import { sitesOf } from './memory-sites.ts';
import {
  InvalidLearnerDataError,
  LearnerDataRecordSchema,
  type LearnerDataAddress,
  type LearnerDataRecord,
  type LearnerDataStore,
} from './learner-data-store.ts';

export type LearnerDataRead<T> =
  | { status: 'missing' }
  | { status: 'found'; record: LearnerDataRecord<T> }
  | { status: 'invalid'; error: InvalidLearnerDataError };

export interface LearnerDataListing<T> {
  records: LearnerDataRecord<T>[];
  /** Records whose value no longer matches the schema: left in place, reported here. */
  invalid: InvalidLearnerDataError[];
}

export interface LearnerDataImport {
  imported: number;
  rejected: InvalidLearnerDataError[];
}

const describeIssue = (error: z.ZodError): string => {
  const issue = error.issues[0];
  return `${issue?.path.join('.') || '(value)'}: ${issue?.message ?? 'invalid'}`;
};

export class LearnerData<T> {
  constructor(
    readonly store: LearnerDataStore,
    readonly learnerId: string,
    readonly schema: z.ZodType<T>,
    private readonly clock: Clock = systemClock,
  ) {}

  async get(origin: string, key: string): Promise<LearnerDataRead<T>> {
    const row = await this.store.get(this.#at(origin, key));
    return row === null ? { status: 'missing' } : this.#check(row);
  }

  /**
   * Stores `value` at (origin, key). Throws InvalidLearnerDataError when the
   * value is not JSON or its JSON form does not match the schema (a bug in the
   * learner, not bad data).
   */
  async put(origin: string, key: string, value: T): Promise<LearnerDataRecord<T>> {
    const at = this.#at(origin, key);
    let json: unknown;
    try {
      const text = JSON.stringify(value);
      if (text === undefined) throw new Error('not JSON');
      json = JSON.parse(text);
    } catch (err) {
      throw new InvalidLearnerDataError(at, `value is not JSON (${err instanceof Error ? err.message : String(err)})`);
    }
    const parsed = this.schema.safeParse(json);
    if (!parsed.success) throw new InvalidLearnerDataError(at, describeIssue(parsed.error));
    const record: LearnerDataRecord = { ...at, value: json, updatedAt: this.clock.now() };
    await this.store.put(record);
    return { ...record, value: parsed.data };
  }

  async delete(origin: string, key: string): Promise<boolean> {
    return this.store.delete(this.#at(origin, key));
  }

  /** This learner's records, of one origin when given, ordered by origin then key. */
  async list(origin?: string): Promise<LearnerDataListing<T>> {
    const out: LearnerDataListing<T> = { records: [], invalid: [] };
    for (const row of await this.store.list(this.learnerId, origin)) {
      const read = this.#check(row);
      if (read.status === 'found') out.records.push(read.record);
      else out.invalid.push(read.error);
    }
    return out;
  }

  /** Deletes this learner's records of one origin (not other learners'). */
  async forgetSite(origin: string): Promise<number> {
    return this.store.forgetSite(origin, this.learnerId);
  }

  /** Every valid record, as JSON for an export (invalid ones cannot be imported again, so they stay out). */
  async exportAll(): Promise<LearnerDataRecord[]> {
    const all = await this.store.exportAll(this.learnerId);
    // Where this browser imported a record from is a local note: the next importer says where the file came from.
    return all.filter((row) => this.#check(row).status === 'found').map(({ importedFrom: _local, ...row }) => row);
  }

  /**
   * Checks what `exportAll` wrote, writing nothing: each record's envelope,
   * this learner's id and the value schema. Valid records come back to be
   * written (by `import`, or with a whole archive in one transaction).
   */
  prepareImport(data: unknown): { valid: LearnerDataRecord[]; rejected: InvalidLearnerDataError[] } {
    const rows = Array.isArray(data) ? data : null;
    if (rows === null) {
      return { valid: [], rejected: [new InvalidLearnerDataError(this.#at('?', '?'), 'an import must be a list of records')] };
    }
    const valid: LearnerDataRecord[] = [];
    const rejected: InvalidLearnerDataError[] = [];
    rows.forEach((row, i) => {
      const envelope = LearnerDataRecordSchema.safeParse(row);
      if (!envelope.success) {
        rejected.push(new InvalidLearnerDataError(this.#at('?', `#${i}`), describeIssue(envelope.error)));
        return;
      }
      // Where it came from is for the importer to say, not the file.
      const { importedFrom: _claimed, ...record } = envelope.data as LearnerDataRecord;
      if (record.learnerId !== this.learnerId) {
        rejected.push(new InvalidLearnerDataError(record, `belongs to learner "${record.learnerId}", not "${this.learnerId}"`));
        return;
      }
      const read = this.#check(record);
      if (read.status === 'found') valid.push(record);
      else rejected.push(read.error);
    });
    return { valid, rejected };
  }

  /** Imports what `exportAll` wrote: valid records are written in one go, the others are returned as errors and change nothing. */
  async import(data: unknown): Promise<LearnerDataImport> {
    const { valid, rejected } = this.prepareImport(data);
    const imported = valid.length > 0 ? await this.store.import(valid) : 0;
    return { imported, rejected };
  }

  /** The learner's `memory` for the registry: forget a site, export, validate an import, list and count by site for the Memory tab. */
  memory(): Required<Omit<LearnerMemory, 'ownStore'>> {
    return {
      forgetSite: (origin) => this.forgetSite(origin),
      export: () => this.exportAll(),
      prepareImport: (data) => {
        const { valid, rejected } = this.prepareImport(data);
        return { records: valid, rejected: rejected.map((e) => e.message) };
      },
      list: async (origin) => (await this.list(origin)).records,
      sites: async () => sitesOf((await this.list()).records),
    };
  }

  #at(origin: string, key: string): LearnerDataAddress {
    return { learnerId: this.learnerId, origin, key };
  }

  #check(row: LearnerDataRecord): Exclude<LearnerDataRead<T>, { status: 'missing' }> {
    const parsed = this.schema.safeParse(row.value);
    if (parsed.success) return { status: 'found', record: { ...row, value: parsed.data } };
    return { status: 'invalid', error: new InvalidLearnerDataError(row, describeIssue(parsed.error)) };
  }
}
