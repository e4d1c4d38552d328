/**
 * Procedures on what the learners already keep, read through the registry
 * (LearnerFactory.procedures): the templates a learner distilled, the steps
 * that really ran as another stored them, the episodes they came from (for
 * the verdict), and replay's small status records in the learner-data store.
 * Implements the loop's ReplayPort and what the Memory tab lists, deletes and
 * marks "never replay".
 */
import type { EpisodeStore } from '../episode/episode-store.ts';
import type { LearnedTemplate, ProcedureKnowledge, RanStep } from '../learning/learner-definition.ts';
import type { LearnerDataStore } from '../learning/learner-data-store.ts';
import type { Clock } from '../ports.ts';
import type { TargetFingerprint } from '../page/target-fingerprint.ts';
import { bindTemplate, buildProcedure, type SourceSuccess } from './build-procedures.ts';
import { matchPlan, type PlanMatch } from './match-procedure.ts';
import { EMPTY_REPLAY_STATUS, newestSuccessAt, REPLAY_DATA_ID, replayBlocked, ReplayStatusSchema, type Procedure, type ReplayStatus } from './procedure.ts';
import type { ReplayPort } from './replay-port.ts';

export interface ProcedureLibraryStores {
  /** What the registry learners offer replay (registry-factories.ts `procedureKnowledge`). */
  knowledge: readonly ProcedureKnowledge[];
  episodes: EpisodeStore;
  learnerData: LearnerDataStore;
}

/** One procedure as the Memory tab shows it. */
export interface ProcedureView {
  procedure: Procedure;
  status: ReplayStatus;
  /** Verified source successes plus replays that succeeded. */
  successCount: number;
  /** Why it does not replay now, or null. */
  blocked: string | null;
}

export class ProcedureLibrary implements ReplayPort {
  readonly approvePlans: boolean;

  constructor(private readonly stores: ProcedureLibraryStores, private readonly clock: Clock, options: { approvePlans?: boolean } = {}) {
    this.approvePlans = options.approvePlans === true;
  }

  /** Every procedure of a site, with the reasons skills gave none (for notes). */
  async build(origin: string, forTask?: string): Promise<{ procedures: Procedure[]; skipped: { skillId: string; reason: string }[] }> {
    const templates: LearnedTemplate[] = [];
    for (const k of this.stores.knowledge) if (k.templates) templates.push(...(await k.templates(origin)));
    // At an episode's start only templates that read the task can replay: the others are not built (their sources not read).
    const skills = templates.filter((skill) => forTask === undefined || bindTemplate(skill.name, forTask) !== null);
    const procedures: Procedure[] = [];
    const skipped: { skillId: string; reason: string }[] = [];
    for (const skill of skills) {
      const built = buildProcedure(skill, await this.successesOf(skill));
      if (built.ok) procedures.push(built.procedure);
      else skipped.push({ skillId: skill.id, reason: built.reason });
    }
    return { procedures, skipped };
  }

  async list(origin: string): Promise<ProcedureView[]> {
    const { procedures } = await this.build(origin);
    const statuses = await this.statuses(origin);
    return procedures.map((procedure) => {
      const status = statuses.get(procedure.id) ?? EMPTY_REPLAY_STATUS;
      return { procedure, status, successCount: procedure.sources.length + status.successes, blocked: replayBlocked(procedure, status) };
    }).filter((v) => v.status.deletedAt === null || newestSuccessAt(v.procedure) > v.status.deletedAt);
  }

  async find(input: { task: string; origin: string }): Promise<PlanMatch> {
    const { procedures } = await this.build(input.origin, input.task);
    return matchPlan(input.task, procedures, await this.statuses(input.origin));
  }

  async record(input: { procedureId: string; origin: string; outcome: 'success' | 'failure' | 'partial' | 'stopped'; at: number }): Promise<void> {
    if (input.outcome === 'stopped' || input.outcome === 'partial') return this.update(input.origin, input.procedureId, (s) => ({ ...s, lastUsedAt: input.at }));
    return this.update(input.origin, input.procedureId, (s) => input.outcome === 'success'
      ? { ...s, successes: s.successes + 1, failuresInRow: 0, lastUsedAt: input.at }
      : { ...s, failures: s.failures + 1, failuresInRow: s.failuresInRow + 1, lastFailureAt: input.at, lastUsedAt: input.at });
  }

  async setNeverReplay(origin: string, procedureId: string, never: boolean): Promise<void> {
    await this.update(origin, procedureId, (s) => ({ ...s, neverReplay: never }));
  }

  /** Deleted until a newer success teaches it again; the template's learner keeps it (it still helps the policy). */
  async delete(origin: string, procedureId: string): Promise<void> {
    const at = this.clock.now();
    await this.update(origin, procedureId, (s) => ({ ...s, deletedAt: at }));
  }

  private async successesOf(skill: LearnedTemplate): Promise<SourceSuccess[]> {
    const out: SourceSuccess[] = [];
    for (const episodeId of skill.episodeIds) {
      const episode = await this.stores.episodes.get(episodeId);
      if (!episode || episode.status !== 'success') continue;
      const transitions = new Map<string, RanStep & { effect?: TargetFingerprint }>();
      const where = { id: episodeId, origin: episode.origin, regUrls: episode.steps.map((s) => s.regUrl) };
      for (const k of this.stores.knowledge) {
        if (k.ranSteps) {
          for (const step of await k.ranSteps(where)) {
            // The element as it ran: what the step's approval was about (its link, form and data).
            const effect = episode.steps.find((s) => s.index === step.stepIndex)?.chosen?.target;
            transitions.set(step.id, effect ? { ...step, effect } : step);
          }
        }
      }
      if (transitions.size === 0) continue;
      const taught = episode.kind === 'demonstration' || episode.steps.some((s) => s.chosen?.decision === 'edited' || s.chosen?.decision === 'demonstrated');
      out.push({
        episodeId,
        task: episode.task,
        source: episode.kind,
        taught,
        endedAt: episode.endedAt,
        transitions: [...transitions.values()].sort((a, b) => a.stepIndex - b.stepIndex),
      });
    }
    return out.sort((a, b) => (a.endedAt ?? 0) - (b.endedAt ?? 0));
  }

  private async statuses(origin: string): Promise<Map<string, ReplayStatus>> {
    const out = new Map<string, ReplayStatus>();
    for (const record of await this.stores.learnerData.list(REPLAY_DATA_ID, origin)) {
      const parsed = ReplayStatusSchema.safeParse(record.value);
      // A broken record is treated as the safest reading: never replay.
      out.set(record.key, parsed.success ? parsed.data : { ...EMPTY_REPLAY_STATUS, neverReplay: true });
    }
    return out;
  }

  private async update(origin: string, procedureId: string, change: (s: ReplayStatus) => ReplayStatus): Promise<void> {
    const address = { learnerId: REPLAY_DATA_ID, origin, key: procedureId };
    const current = await this.stores.learnerData.get(address);
    const parsed = current ? ReplayStatusSchema.safeParse(current.value) : null;
    const status = parsed?.success ? parsed.data : EMPTY_REPLAY_STATUS;
    await this.stores.learnerData.put({ ...address, value: change(status), updatedAt: this.clock.now() });
  }
}
