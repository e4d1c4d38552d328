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
import type { Logger } from '../ports.ts';
import type { RewardSettings } from '../settings.ts';
import { learnFromTrajectory, trajectoryOf } from './learn-trajectory.ts';
import type { Learner } from './learner.ts';
import { assignStepRewards } from './rewards.ts';
import { importTrajectories, type ImportedTrajectoryInput } from './trajectory-file.ts';
import type { LearnerImportReport, LearnerMemory } from './learner-definition.ts';
import type { LearnerDataRecord } from './learner-data-store.ts';
import { maskRecord } from '../secrets/mask-record.ts';

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
  /** Who learns from an imported trajectory file, as after a live episode: the enabled learners in registry order. */
  learning: ImportLearning;
  /** Writes every imported row, the learners' records included, in one transaction: all of them, or nothing. */
  writeImport(rows: ImportRows): Promise<void>;
  now(): number;
}

export interface ImportLearning {
  learners(): readonly Learner[];
  rewards(): RewardSettings;
  logger: Logger;
}

export interface MemoryImportResult {
  transitions: number;
  episodes: number;
  /** From an archive: CER entries imported; from a trajectory file: items the learners learned (`LearnReport.learned`). */
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
  // Stored memory holds no secret; the export is masked again for rows an older version wrote.
  const { item: archive } = maskRecord(buildArchive({
    transitions: await d.memory.all(),
    episodes: await d.episodes.all(),
    experiences: await d.experiences.all(),
    learners,
    now: d.now(),
  }));
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
  // Another person's file may hold secrets: masked before anything is stored or learned from.
  return importTrajectories(maskRecord(raw).item, { now, kind: 'imported' });
}

/** One imported trajectory reaches the learners by the live episodes' path, with person rewards from its outcome. */
async function learnImported(learning: ImportLearning, input: ImportedTrajectoryInput): Promise<number> {
  const { episode } = input;
  const executed = episode.steps.filter((s) => s.chosen);
  const outcome = episode.status === 'success' || episode.status === 'failure' || episode.status === 'partial' ? episode.status : 'partial';
  const { rewards, source } = assignStepRewards({ steps: executed, outcome, evaluatorScores: null, settings: learning.rewards() });
  let i = 0;
  const rewarded = { ...episode, steps: episode.steps.map((s) => (s.chosen ? { ...s, reward: rewards[i++] ?? 0 } : s)) };
  const trajectory = trajectoryOf(rewarded, { rewardSource: source, pageTitles: input.pageTitles, observations: input.observations });
  const outcomeOf = await learnFromTrajectory(learning.learners(), trajectory, { logger: learning.logger, source: 'imported trajectory' });
  if (outcomeOf.notes.length) learning.logger.info('learned from an imported trajectory', { episodeId: episode.id, notes: outcomeOf.notes });
  return outcomeOf.learned;
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
    let learned = 0;
    for (const input of trajectories.inputs) learned += await learnImported(d.learning, input);
    return { transitions: 0, episodes: trajectories.inputs.length, experiences: learned };
  }
  const { item: archive } = maskRecord(parseArchive(json, { upgradeEpisode: (raw) => upgradeStoredEpisode(raw) }));
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
