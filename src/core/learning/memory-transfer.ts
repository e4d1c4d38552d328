/**
 * Export, import and "forget this site" over every registry learner's memory,
 * plus the episodes. Moved out of the background's UI handlers, which now only
 * wire: the rules live here, in Node-testable core.
 *
 * Archive layout: JitRL's transitions and CER's buffer keep their top-level
 * fields (`transitions`, `experiences`), so every export written before the
 * registry still imports unchanged; every other learner with `memory.export`
 * is stored under `learners[id]` and read back through its `memory.import`.
 */
import type { EpisodeStore } from '../episode/episode-store.ts';
import { asImportedEpisode, buildArchive, ImportError, parseArchive } from '../memory/memory-archive.ts';
import { upgradeStoredEpisode } from './stored-step-upgrade.ts';
import type { Transition } from '../memory/transition.ts';
import type { Episode } from '../episode/episode.ts';
import type { MemoryStore } from '../memory/memory-store.ts';
import type { ExperienceStore } from './cer/experience-store.ts';
import { ExperienceEntrySchema, type ExperienceEntry } from './cer/experience.ts';
import type { DistillInput } from './cer/distill.ts';
import { importTrajectories } from './cer/trajectory-import.ts';
import type { LearnerImportReport, LearnerMemory } from './learner-definition.ts';
import type { LearnerDataRecord } from './learner-data-store.ts';

/** Everything one import writes, validated before any of it is. */
export interface ImportRows {
  transitions: Transition[];
  episodes: Episode[];
  experiences: ExperienceEntry[];
  /** The registry learners' records (the generic per-learner store). */
  learnerData: LearnerDataRecord[];
}

export interface MemoryTransferDeps {
  episodes: EpisodeStore;
  /** JitRL's transitions (archive field `transitions`). */
  memory: MemoryStore;
  /** CER's buffer (archive field `experiences`). */
  experiences: ExperienceStore;
  /** Every registry learner's memory, in registry order. */
  learnerMemories: readonly { id: string; memory: LearnerMemory }[];
  /** Learns from imported trajectories (the episode lifecycle for imports). */
  learnFromImported(inputs: DistillInput[]): Promise<{ experiences: number }>;
  /** Writes every imported row, the learners' records included, in one transaction: all of them, or nothing. */
  writeImport(rows: ImportRows): Promise<void>;
  now(): number;
}

export interface MemoryImportResult {
  transitions: number;
  episodes: number;
  experiences: number;
  /** Per learner stored under `learners[id]`: what its memory import reported. Absent when none. */
  learners?: Record<string, LearnerImportReport>;
}

/** The learners whose memory is in the archive's own top-level fields, not under `learners`. */
const TOP_LEVEL_LEARNERS = new Set(['jitrl', 'cer']);

/** Removes what every learner learned on one origin, and its episodes. Answers JitRL's count, as the Memory tab shows it. */
export async function forgetSite(d: Pick<MemoryTransferDeps, 'learnerMemories' | 'episodes'>, origin: string): Promise<{ deleted: number }> {
  let deleted = 0;
  for (const { id, memory } of d.learnerMemories) {
    const n = await memory.forgetSite(origin);
    if (id === 'jitrl') deleted = n;
  }
  await d.episodes.forgetSite(origin);
  return { deleted };
}

export async function exportMemory(d: MemoryTransferDeps): Promise<{ json: string; filename: string }> {
  const learners: Record<string, unknown> = {};
  for (const { id, memory } of d.learnerMemories) {
    if (TOP_LEVEL_LEARNERS.has(id) || !memory.export) continue;
    const part = await memory.export();
    // A learner with nothing stored adds nothing to the file.
    if (Array.isArray(part) && part.length === 0) continue;
    learners[id] = part;
  }
  const archive = buildArchive({
    transitions: await d.memory.all(),
    episodes: await d.episodes.all(),
    experiences: await d.experiences.all(),
    learners,
    now: d.now(),
  });
  const day = new Date(d.now()).toISOString().slice(0, 10);
  return { json: JSON.stringify(archive), filename: `apprentice-memory-${day}.json` };
}

/** A file that is not our archive but looks like trajectories (has "steps" or "trajectories"). */
function asTrajectoryFile(json: string, now: number) {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return null;
  }
  if (typeof raw === 'object' && raw !== null && 'format' in raw) return null;
  const looksLike = (v: unknown) => typeof v === 'object' && v !== null && ('steps' in v || 'trajectories' in v);
  if (!(Array.isArray(raw) ? raw.length > 0 && raw.every(looksLike) : looksLike(raw))) return null;
  return importTrajectories(raw, { now, kind: 'imported' });
}

/**
 * Imports an archive (validated as a whole before anything is written: a bad
 * file changes nothing) or a trajectory file (stored as episodes and learned
 * from). Learners under `learners[id]` validate their own part; what they
 * reject is reported per learner, and a learner this build does not have is
 * reported too, not guessed at.
 */
export async function importMemory(d: MemoryTransferDeps, json: string): Promise<MemoryImportResult> {
  const trajectories = asTrajectoryFile(json, d.now());
  if (trajectories) {
    if (trajectories.errors.length) throw new ImportError(`the trajectory file is invalid: ${trajectories.errors.slice(0, 3).join('; ')}`);
    // The episodes are written in one transaction; what the learners then learn from them is learning, as after a live episode.
    await d.writeImport({ transitions: [], episodes: trajectories.inputs.map((i) => asImportedEpisode(i.episode, d.now())), experiences: [], learnerData: [] });
    const { experiences } = await d.learnFromImported(trajectories.inputs);
    return { transitions: 0, episodes: trajectories.inputs.length, experiences };
  }
  const archive = parseArchive(json, { upgradeEpisode: (raw) => upgradeStoredEpisode(raw) });
  const experiences = archive.experiences.map((raw, i) => {
    const parsed = ExperienceEntrySchema.safeParse(raw);
    if (!parsed.success) throw new ImportError(`experience #${i} is invalid: ${parsed.error.issues[0]?.message ?? ''}`);
    return parsed.data;
  });
  const result: MemoryImportResult = { transitions: archive.transitions.length, episodes: archive.episodes.length, experiences: experiences.length };
  // Each learner validates its own part (writing nothing); what it rejects is reported, the rest joins the one write below.
  const learnerData: LearnerDataRecord[] = [];
  const learnerParts = Object.entries(archive.learners ?? {});
  if (learnerParts.length > 0) {
    result.learners = {};
    for (const [id, data] of learnerParts) {
      const memory = d.learnerMemories.find((m) => m.id === id)?.memory;
      if (!memory?.prepareImport) {
        result.learners[id] = { imported: 0, rejected: [`this version of Apprentice has no learner "${id}" that imports memory; its part was skipped`] };
        continue;
      }
      const prepared = memory.prepareImport(data);
      learnerData.push(...prepared.records);
      result.learners[id] = { imported: prepared.records.length, rejected: prepared.rejected };
    }
  }
  // Everything validated above; now one transaction writes every store, the learners' records included: all of it or nothing.
  // Imported episodes are always finished and bound to no tab (asImportedEpisode).
  await d.writeImport({ transitions: archive.transitions, episodes: archive.episodes.map((e) => asImportedEpisode(e, d.now())), experiences, learnerData });
  return result;
}
