/**
 * Export, import and "forget this site" over every registry learner's memory,
 * plus the episodes. The rules live here, in Node-testable core; the
 * background only wires.
 *
 * Archive layout: a learner with a store of its own (LearnerMemory.ownStore)
 * exports into the archive's top-level field of that name (`transitions`,
 * `experiences`, as every export before the registry did, so those still
 * import unchanged); every other learner with `memory.export` is stored under
 * `learners[id]`. Both are read back through the learner's `prepareImport`.
 */
import type { EpisodeStore } from '../episode/episode-store.ts';
import { asImportedEpisode, buildArchive, ImportError, OWN_STORE_FIELDS, ownStoreRows, parseArchive, type MemoryArchive } from '../archive/memory-archive.ts';
import type { Episode } from '../episode/episode.ts';
import type { Logger } from '../ports.ts';
import type { RewardSettings } from '../settings.ts';
import { learnFromTrajectory } from './learn-trajectory.ts';
import { trajectoryOf } from '../episode/trajectory.ts';
import type { Learner } from './learner.ts';
import { assignStepRewards } from '../credit/rewards.ts';
import { importTrajectories, type ImportedTrajectoryInput } from '../episode/trajectory-file.ts';
import type { LearnerMemory } from './learner-definition.ts';
import type { LearnerDataRecord } from './learner-data-store.ts';
import { maskRecord } from '../secrets/mask-record.ts';
import { forgetSiteEpisodes, type ForgottenEpisodes } from '../autonomy/forget-site.ts';
import type { ImportOutcome, ImportOutcomes, MemoryImportResult } from '../archive/import-outcome.ts';

/** Validated rows for one learner's own store (OwnStore), by the store's name. */
export interface OwnStoreRows {
  store: string;
  rows: unknown[];
}

/** Everything one import writes, validated before any of it is. */
export interface ImportRows {
  episodes: Episode[];
  /** The registry learners' records (the generic per-learner store). */
  learnerData: LearnerDataRecord[];
  /** Rows of the learners' own stores. */
  own: OwnStoreRows[];
  /** What the import did, under its id, committed with the rows (import-outcome.ts). */
  outcome?: ImportOutcome;
}

export interface MemoryTransferDeps {
  episodes: EpisodeStore;
  /** Every registry learner's memory, in registry order. */
  learnerMemories: readonly { id: string; memory: LearnerMemory }[];
  /** Who learns from an imported trajectory file, as after a live episode: the enabled learners in registry order. */
  learning: ImportLearning;
  /** Writes every imported row, the learners' records included, in one transaction: all of them, or nothing. */
  writeImport(rows: ImportRows): Promise<void>;
  /** An archived episode in an older format, upgraded before it is parsed (the roots: `upgradeStoredEpisode` over the registry). */
  upgradeEpisode(raw: unknown): unknown;
  now(): number;
  /** Where a trajectory file's outcome is completed once the learners learned from it. */
  importOutcomes?: Pick<ImportOutcomes, 'put'>;
}

export interface ImportLearning {
  learners(): readonly Learner[];
  rewards(): RewardSettings;
  logger: Logger;
}

export type { MemoryImportResult };

/**
 * Removes what every learner learned on one origin, and every episode step on
 * it whichever task it belongs to (forget-site.ts); answers how many learner
 * items, tasks, steps, decisions and approvals went.
 */
export async function forgetSite(d: Pick<MemoryTransferDeps, 'learnerMemories' | 'episodes'>, origin: string): Promise<{ deleted: number } & ForgottenEpisodes> {
  let deleted = 0;
  for (const { memory } of d.learnerMemories) deleted += await memory.forgetSite(origin);
  return { deleted, ...(await forgetSiteEpisodes(d.episodes, origin)) };
}

export async function exportMemory(d: MemoryTransferDeps): Promise<{ json: string; filename: string }> {
  const { archive } = await exportArchive(d);
  const day = new Date(d.now()).toISOString().slice(0, 10);
  return { json: JSON.stringify(archive), filename: `apprentice-memory-${day}.json` };
}

/** The export archive, and how many secret values its masking replaced (0 when memory was clean, as it should be). */
export async function exportArchive(d: MemoryTransferDeps): Promise<{ archive: MemoryArchive; masked: number }> {
  const learners: Record<string, unknown> = {};
  const own: Record<string, unknown[]> = {};
  for (const { id, memory } of d.learnerMemories) {
    if (!memory.export) continue;
    const part = await memory.export();
    if (memory.ownStore) {
      own[memory.ownStore.name] = Array.isArray(part) ? part : [];
      continue;
    }
    // A learner with nothing stored adds nothing to the file.
    if (Array.isArray(part) && part.length === 0) continue;
    learners[id] = part;
  }
  // Stored memory holds no secret; the export is masked again for rows an older version wrote.
  const { item: archive, masked } = maskRecord(buildArchive({ episodes: await d.episodes.all(), own, learners, now: d.now() }));
  return { archive, masked };
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
 * The archive's own-store fields, each validated by the learner that keeps
 * the store. As before the registry, one invalid row refuses the whole file,
 * and rows no learner of this build keeps are refused, never dropped.
 */
function prepareOwnStores(learnerMemories: MemoryTransferDeps['learnerMemories'], archive: MemoryArchive): OwnStoreRows[] {
  const own: OwnStoreRows[] = [];
  const claimed = new Set<string>();
  for (const { memory } of learnerMemories) {
    if (!memory.ownStore || !memory.prepareImport) continue;
    const name = memory.ownStore.name;
    claimed.add(name);
    const prepared = memory.prepareImport(ownStoreRows(archive, name));
    if (prepared.rejected.length > 0) throw new ImportError(prepared.rejected[0]!);
    own.push({ store: name, rows: prepared.rows ?? [] });
  }
  for (const name of OWN_STORE_FIELDS) {
    const rows = ownStoreRows(archive, name);
    if (rows.length > 0 && !claimed.has(name)) throw new ImportError(`the file has ${rows.length} "${name}" rows, but no learner of this version keeps them; nothing was imported`);
  }
  return own;
}

/** An archive's records, as the panel names their origin. */
function archiveSource(archive: MemoryArchive): string {
  const at = new Date(archive.exportedAt);
  return Number.isNaN(at.getTime()) ? 'an archive' : `an archive exported ${at.toISOString().slice(0, 10)}`;
}

/**
 * Imports an archive (validated as a whole before anything is written: a bad
 * file changes nothing) or a trajectory file (stored as episodes and learned
 * from). Learners under `learners[id]` validate their own part; what they
 * reject is reported per learner, and a learner this build does not have is
 * reported too, not guessed at.
 */
export async function importMemory(
  d: MemoryTransferDeps,
  json: string,
  options: { importedFrom?: (record: LearnerDataRecord) => string; importId?: string } = {},
): Promise<MemoryImportResult> {
  const outcome = (result: MemoryImportResult, complete: boolean): { outcome?: ImportOutcome } =>
    options.importId === undefined ? {} : { outcome: { importId: options.importId, at: d.now(), result, complete } };
  const trajectories = asTrajectoryFile(json, d.now());
  if (trajectories) {
    if (trajectories.errors.length) throw new ImportError(`the trajectory file is invalid: ${trajectories.errors.slice(0, 3).join('; ')}`);
    // The episodes are written in one transaction; what the learners then learn from them is learning, as after a live episode.
    const written = { transitions: 0, episodes: trajectories.inputs.length, experiences: 0 };
    await d.writeImport({ episodes: trajectories.inputs.map((i) => asImportedEpisode(i.episode, d.now())), learnerData: [], own: [], ...outcome(written, false) });
    let learned = 0;
    for (const input of trajectories.inputs) learned += await learnImported(d.learning, input);
    const result = { ...written, experiences: learned };
    const done = outcome(result, true).outcome;
    if (done) await d.importOutcomes?.put(done);
    return result;
  }
  const { item: archive } = maskRecord(parseArchive(json, { upgradeEpisode: (raw) => d.upgradeEpisode(raw) }));
  const own = prepareOwnStores(d.learnerMemories, archive);
  const count = (name: string) => own.find((o) => o.store === name)?.rows.length ?? 0;
  const result: MemoryImportResult = { transitions: count('transitions'), episodes: archive.episodes.length, experiences: count('experiences') };
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
      // Each record says where it came from (an imported guide shows its origin in the panel).
      learnerData.push(...prepared.records.map((r) => ({ ...r, importedFrom: options.importedFrom?.(r) ?? archiveSource(archive) })));
      result.learners[id] = { imported: prepared.records.length, rejected: prepared.rejected };
    }
  }
  // Everything validated above; now one transaction writes every store, the learners' records included: all of it or nothing.
  // Imported episodes are always finished and bound to no tab (asImportedEpisode).
  await d.writeImport({ episodes: archive.episodes.map((e) => asImportedEpisode(e, d.now())), learnerData, own, ...outcome(result, true) });
  return result;
}
