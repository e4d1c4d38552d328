/**
 * The export/import file format. An import is validated as a whole before
 * anything is written: a bad file changes nothing and says why.
 */
import * as z from 'zod';
import { EpisodeSchema, type Episode } from '../agent/episode.ts';
import { TransitionSchema, type Transition } from './transition.ts';

export const ARCHIVE_FORMAT = 'apprentice-memory';
export const ARCHIVE_VERSION = 1;

export const MemoryArchiveSchema = z.strictObject({
  format: z.literal(ARCHIVE_FORMAT),
  version: z.literal(ARCHIVE_VERSION),
  exportedAt: z.number(),
  transitions: z.array(TransitionSchema),
  episodes: z.array(EpisodeSchema),
  /** CER buffer entries; validated by the CER store's own schema on import. */
  experiences: z.array(z.looseObject({ id: z.string(), origin: z.string(), kind: z.enum(['dynamics', 'skill']) })),
  /**
   * What registry learners keep, by learner id (Training-Free GRPO's library
   * entries); each learner validates its own rows on import. Absent in older
   * exports, which still import.
   */
  learners: z.record(z.string(), z.array(z.unknown())).optional(),
});
export type MemoryArchive = z.infer<typeof MemoryArchiveSchema>;

export class ImportError extends Error {
  override name = 'ImportError';
}

export function buildArchive(input: {
  transitions: Transition[];
  episodes: Episode[];
  experiences: MemoryArchive['experiences'];
  learners?: Record<string, unknown[]>;
  now: number;
}): MemoryArchive {
  return {
    format: ARCHIVE_FORMAT, version: ARCHIVE_VERSION, exportedAt: input.now,
    transitions: input.transitions, episodes: input.episodes, experiences: input.experiences,
    ...(input.learners ? { learners: input.learners } : {}),
  };
}

/** Parses and validates an archive file's text; throws ImportError with a reason a person can act on. */
export function parseArchive(text: string): MemoryArchive {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new ImportError(`the file is not JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (typeof raw !== 'object' || raw === null || (raw as { format?: unknown }).format !== ARCHIVE_FORMAT) {
    throw new ImportError('the file is not an Apprentice memory export (no "format": "apprentice-memory")');
  }
  const parsed = MemoryArchiveSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ImportError(`the file is an Apprentice export but invalid at ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'unknown problem'}`);
  }
  return parsed.data;
}
