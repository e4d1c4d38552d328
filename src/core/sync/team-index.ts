/**
 * Which rows of local memory came from a teammate, and from which document:
 * the provenance the Memory tab shows, "forget this teammate" removes by, the
 * publisher leaves out (a teammate's item is theirs to share), and a deletion
 * on the server is matched against. The person's own rows have no entry.
 *
 * Entries live in the generic learner-data store under TEAM_INDEX_ID, one per
 * row (origin, `${part}|${key}`), so they are written in the same transaction
 * as the rows a merge imports (merge-incoming.ts passes them through the
 * import as one more part) and go when their site is forgotten.
 */
import * as z from 'zod';
import type { LearnerDataRecord, LearnerDataStore } from '../learning/learner-data-store.ts';
import { LearnerData } from '../learning/learner-data.ts';
import type { LearnerMemory } from '../learning/learner-definition.ts';
import { ProvenanceSchema, SharedPartSchema, type SharedDoc, type SharedPart, type SharedProvenance } from './shared-doc.ts';

/** Not a learner: the id the index's records carry in the learner-data store. */
export const TEAM_INDEX_ID = 'team-memory';

export const TeamIndexEntrySchema = z.strictObject({
  docId: z.string().min(1),
  part: SharedPartSchema,
  key: z.string().min(1),
  provenance: ProvenanceSchema,
});
export type TeamIndexEntry = z.infer<typeof TeamIndexEntrySchema>;

/** The key `mergedHashes` uses for a row. */
export const rowAddress = (part: SharedPart, origin: string, key: string): string => `${origin}|${indexKey(part, key)}`;

export interface TeamRow {
  origin: string;
  entry: TeamIndexEntry;
}

const indexKey = (part: SharedPart, key: string): string => `${part}|${key}`;

/** The index record a merged document leaves behind. */
export function indexRecordOf(doc: Pick<SharedDoc, '_id' | 'part' | 'origin' | 'key' | 'provenance'>, now: number): LearnerDataRecord<TeamIndexEntry> {
  return {
    learnerId: TEAM_INDEX_ID, origin: doc.origin, key: indexKey(doc.part, doc.key), updatedAt: now,
    value: { docId: doc._id, part: doc.part, key: doc.key, provenance: doc.provenance },
  };
}

export class TeamIndex {
  readonly data: LearnerData<TeamIndexEntry>;
  constructor(store: LearnerDataStore) {
    this.data = new LearnerData(store, TEAM_INDEX_ID, TeamIndexEntrySchema);
  }

  async get(origin: string, part: SharedPart, key: string): Promise<TeamIndexEntry | null> {
    const read = await this.data.get(origin, indexKey(part, key));
    return read.status === 'found' ? read.record.value : null;
  }

  /** Every teammate row (of one origin when given). */
  async rows(origin?: string): Promise<TeamRow[]> {
    return (await this.data.list(origin)).records.map((r) => ({ origin: r.origin, entry: r.value }));
  }

  async remove(origin: string, part: SharedPart, key: string): Promise<boolean> {
    return this.data.delete(origin, indexKey(part, key));
  }

  /**
   * For the publisher (loaded once per publish): the content hash each
   * teammate row had when it was merged (the last part of its document id).
   */
  async mergedHashes(): Promise<Map<string, string>> {
    return new Map((await this.rows()).map((r) => [`${r.origin}|${indexKey(r.entry.part, r.entry.key)}`, r.entry.docId.slice(r.entry.docId.lastIndexOf('|') + 1)]));
  }

  /** The index as one more memory for the import path (its rows ride in the same transaction) and "forget this site". */
  memory(): Required<Omit<LearnerMemory, 'ownStore' | 'sites'>> {
    return this.data.memory();
  }
}

/** Who taught a row, for the panel: "Ana, 3 May, episode e12, Apprentice 0.4.0". */
export function describeProvenance(p: SharedProvenance): string {
  const when = new Date(p.taughtAt).toISOString().slice(0, 16).replace('T', ' ');
  return `${p.author.name}, ${when} UTC${p.episodeId ? `, episode ${p.episodeId}` : ''}, Apprentice ${p.appVersion}`;
}
