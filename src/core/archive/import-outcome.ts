/**
 * What an import did, kept under the import's id so it can be read after
 * the service worker restarts (issue 30). A worker stopped during an import
 * loses the reply: the panel cannot tell "nothing changed" from "it all
 * landed". The outcome is written in the import's own transaction, so it
 * exists exactly when the data does; the panel asks for it by id when the
 * reply never came.
 */
import * as z from 'zod';

export const MemoryImportResultSchema = z.strictObject({
  /** Rows of the archive's `transitions` field imported. */
  transitions: z.number().int(),
  episodes: z.number().int(),
  /** From an archive: rows of its `experiences` field imported; from a trajectory file: items the learners learned. */
  experiences: z.number().int(),
  /** Per learner stored under the archive's `learners[id]`: imported count and reasons for what was not. */
  learners: z.record(z.string(), z.strictObject({ imported: z.number().int(), rejected: z.array(z.string()) })).optional(),
});
export type MemoryImportResult = z.infer<typeof MemoryImportResultSchema>;

/** An id the panel makes for one import (a UUID); also the storage key's tail. */
export const ImportIdSchema = z.string().regex(/^[A-Za-z0-9-]{8,64}$/, 'an import id is 8 to 64 letters, digits or dashes');

export const ImportOutcomeSchema = z.strictObject({
  importId: ImportIdSchema,
  /** When the data was committed. */
  at: z.number(),
  result: MemoryImportResultSchema,
  /**
   * False while the learners still learn from an imported trajectory file (its
   * episodes are committed first): a worker stopped then leaves the episodes in
   * and `result.experiences` at what was learned before.
   */
  complete: z.boolean(),
});
export type ImportOutcome = z.infer<typeof ImportOutcomeSchema>;

/** Where outcomes are kept (IndexedDB in the extension). `get` answers null for an id never committed. */
export interface ImportOutcomes {
  get(importId: string): Promise<ImportOutcome | null>;
  put(outcome: ImportOutcome): Promise<void>;
}

export class ImportOutcomeError extends Error {
  override name = 'ImportOutcomeError';
}

/** A stored outcome read back and validated: null when none was stored; a damaged one is an error, never "nothing landed". */
export function parseStoredOutcome(importId: string, raw: unknown): ImportOutcome | null {
  if (raw === undefined) return null;
  const parsed = ImportOutcomeSchema.safeParse(raw);
  if (!parsed.success) throw new ImportOutcomeError(`the stored outcome of import ${importId} is unreadable: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
