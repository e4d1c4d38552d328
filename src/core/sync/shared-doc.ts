/**
 * One shared item of team memory as a CouchDB document. Every document is
 * immutable: a new version of an item is a new document (its id ends with a
 * hash of the content), and the author deletes the version it replaced. So
 * CouchDB never has to pick between two edits of one document; where two
 * members edited the same item, both versions arrive and `resolveVersions`
 * (conflicts.ts) picks one the same way on every replica.
 *
 * The item itself is one row of the memory export, unchanged: a remembered
 * step (archive field `transitions`), a buffer entry (`experiences`) or a
 * registry learner's record (`learners[id]`), so a new learner's memory is
 * shared with no new code here.
 */
import * as z from 'zod';
import { fnv1a } from '../fnv1a.ts';

/** The document format this build writes; a higher one comes from a newer Apprentice and is held, not merged. */
export const SHARED_DOC_SCHEMA = 1;
/** A document larger than this (its JSON, in bytes) is neither shared nor merged. */
export const MAX_SHARED_DOC_BYTES = 64 * 1024;

/** Where an item lives in the export: `transitions`, `experiences` or `learners/<id>`. */
export const SharedPartSchema = z.string().regex(/^(transitions|experiences|learners\/[A-Za-z0-9_-]+)$/);
export type SharedPart = z.infer<typeof SharedPartSchema>;

/** Who shared the item: a random id per browser profile and the name the person chose. */
export const MemberSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9-]{8,64}$/),
  name: z.string().min(1).max(80),
});
export type Member = z.infer<typeof MemberSchema>;

/** Who, when, from which episode and with which Apprentice an item was taught. */
export const ProvenanceSchema = z.strictObject({
  author: MemberSchema,
  /** When the item was learned or last changed (ms): the item's own updatedAt or createdAt. */
  taughtAt: z.number().finite(),
  /** When this version was shared (ms). */
  sharedAt: z.number().finite(),
  /** The episode the item came from, when it names one. */
  episodeId: z.string().nullable(),
  appVersion: z.string().min(1).max(40),
});
export type SharedProvenance = z.infer<typeof ProvenanceSchema>;

/** The fields every document must have before its schema version is even looked at. */
export const SharedDocHeaderSchema = z.looseObject({
  _id: z.string().min(1),
  type: z.literal('apprentice-item'),
  schema: z.number().int().positive(),
});

export const SharedDocSchema = z.strictObject({
  _id: z.string().min(1).max(1024),
  _rev: z.string().optional(),
  type: z.literal('apprentice-item'),
  schema: z.literal(SHARED_DOC_SCHEMA),
  part: SharedPartSchema,
  origin: z.string().url(),
  /** The item's address within its part: a transition's or entry's id, a learner record's key. */
  key: z.string().min(1).max(512),
  /** FNV-1a of the item's JSON: two documents with the same hash hold the same version. */
  contentHash: z.string().regex(/^[0-9a-z]+$/),
  provenance: ProvenanceSchema,
  /** The export row, validated on merge by the part's own schema (the same one a file import uses). */
  item: z.json(),
});
export type SharedDoc = z.infer<typeof SharedDocSchema>;

/** The same item in one part on one site: the versions of this compete in a conflict. */
export const itemAddress = (doc: Pick<SharedDoc, 'part' | 'origin' | 'key'>): string => `${doc.origin}|${doc.part}|${doc.key}`;

/** JSON with object keys sorted: the same content hashes the same whatever order a schema parse left its keys in. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The hash of an item's content (its canonical JSON). */
export const contentHashOf = (item: unknown): string => fnv1a(canonicalJson(item)).toString(36);

/**
 * A document's id: the item's address, its author and its content hash.
 * Ids sort by origin first, so one site's documents are one key range.
 */
export function sharedDocId(doc: Pick<SharedDoc, 'part' | 'origin' | 'key' | 'contentHash'> & { author: string }): string {
  return `${doc.origin}|${doc.part}|${doc.key}|${doc.author}|${doc.contentHash}`;
}

/** The size a document takes as JSON, in bytes (UTF-8). */
export const docBytes = (doc: unknown): number => new TextEncoder().encode(JSON.stringify(doc)).length;
