/**
 * The export/import file format. An import is validated as a whole before
 * anything is written: a bad file changes nothing and says why.
 */
import * as z from 'zod';
import { EpisodeSchema, FINISHED_STATUSES, type Episode } from '../episode/episode.ts';
import { StepRowSchema } from '../stores/step-rows.ts';

export const ARCHIVE_FORMAT = 'apprentice-memory';
export const ARCHIVE_VERSION = 1;

export const MemoryArchiveSchema = z.strictObject({
  format: z.literal(ARCHIVE_FORMAT),
  version: z.literal(ARCHIVE_VERSION),
  exportedAt: z.number(),
  transitions: z.array(StepRowSchema),
  episodes: z.array(EpisodeSchema),
  /** The `experiences` siteRows store's rows; the rest of each row is validated by the declaring learner's schema on import. */
  experiences: z.array(z.looseObject({ id: z.string(), origin: z.string() })),
  /**
   * Every other registry learner's memory export, by learner id; each learner
   * validates its own part on import. Optional: exports written before the
   * registry have none and import unchanged.
   */
  learners: z.record(z.string().min(1), z.json()).optional(),
});
export type MemoryArchive = z.infer<typeof MemoryArchiveSchema>;

export class ImportError extends Error {
  override name = 'ImportError';
}

/** The archive's fields that hold a learner's own store (LearnerMemory.ownStore), as exports before the registry wrote them. */
export const OWN_STORE_FIELDS = ['transitions', 'experiences'] as const;
export type OwnStoreField = (typeof OWN_STORE_FIELDS)[number];

/** The rows of an archive's own-store field, by the store's name (none for a name the format has no field for). */
export function ownStoreRows(archive: MemoryArchive, name: string): unknown[] {
  return (OWN_STORE_FIELDS as readonly string[]).includes(name) ? archive[name as OwnStoreField] : [];
}

export function buildArchive(input: {
  episodes: Episode[];
  /** Rows of the learners' own stores, by store name (`transitions`, `experiences`); validated again on import. */
  own: Readonly<Record<string, unknown[]>>;
  learners?: Record<string, unknown>;
  now: number;
}): MemoryArchive {
  const unknown = Object.keys(input.own).filter((name) => !(OWN_STORE_FIELDS as readonly string[]).includes(name));
  // A new learner keeps learnerData records (exported under `learners`); only the two older stores have fields.
  if (unknown.length > 0) throw new Error(`the archive format has no field for the store(s) ${unknown.join(', ')}`);
  const rows = (name: OwnStoreField) => (input.own[name] ?? []) as never;
  const archive: MemoryArchive = { format: ARCHIVE_FORMAT, version: ARCHIVE_VERSION, exportedAt: input.now, transitions: rows('transitions'), episodes: input.episodes, experiences: rows('experiences') };
  // Exports are JSON: learner parts are JSON by contract (LearnerMemory.export).
  if (input.learners && Object.keys(input.learners).length > 0) archive.learners = input.learners as MemoryArchive['learners'];
  return archive;
}

/**
 * Parses and validates an archive file's text; throws ImportError with a
 * reason a person can act on. `upgradeEpisode` brings episodes written in an
 * older stored format to the current one before they are validated.
 */
export function parseArchive(text: string, options: { upgradeEpisode?: (raw: unknown) => unknown } = {}): MemoryArchive {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new ImportError(`the file is not JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (typeof raw !== 'object' || raw === null || (raw as { format?: unknown }).format !== ARCHIVE_FORMAT) {
    throw new ImportError('the file is not an Apprentice memory export (no "format": "apprentice-memory")');
  }
  const { upgradeEpisode } = options;
  const episodes = (raw as { episodes?: unknown }).episodes;
  if (upgradeEpisode && Array.isArray(episodes)) raw = { ...raw, episodes: episodes.map(upgradeEpisode) };
  const parsed = MemoryArchiveSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ImportError(`the file is an Apprentice export but invalid at ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'unknown problem'}`);
  }
  return parsed.data;
}

/**
 * An imported episode is history, never a live episode: it is always finished
 * and bound to no tab, so no tab (or a reused tab id) can resume it. Whatever
 * kind the file says (a demonstration, a benchmark run), it is 'imported':
 * the autonomy gate counts only decisions taken in this browser
 * (approval-history.ts), and a file must not grant them.
 */
export function asImportedEpisode(episode: Episode, now: number): Episode {
  const finished = (FINISHED_STATUSES as readonly string[]).includes(episode.status);
  return {
    ...episode,
    tabId: null,
    status: finished ? episode.status : 'stopped',
    endedAt: episode.endedAt ?? now,
    kind: 'imported',
  };
}
