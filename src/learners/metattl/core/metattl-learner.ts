/**
 * Meta-TTL as a Learner. At episode start it looks up the guide in force for
 * this task and keeps it as the episode's plan (checkpointed, so the log later
 * names exactly the guide the actor followed); before every proposal it
 * REPLACES the actor's guide with it; after the episode the meta-agent reads
 * the log and writes the next guide (guide-adaptation.ts). Without a model it
 * does nothing and says so.
 */
import type { ChatModel, Clock } from '../../../core/ports.ts';
import type { EpisodeStartContext, FinishedEpisode, LearnReport, Learner, RequestChange, RequestShape, StepContext } from '../../../core/learning/learner.ts';
import { episodeLogFromTrajectory } from './episode-log-from-trajectory.ts';
import { GuideAdaptation, type AfterEpisodeReport } from './guide-adaptation.ts';
import type { GuideStore } from './guide-store.ts';
import type { MetaTtlSettings } from './metattl-settings.ts';
import { METATTL_ID, MetaTtlPlanSchema, type MetaTtlPlan } from './plan.ts';

export { METATTL_ID, MetaTtlPlanSchema, type MetaTtlPlan };

export interface MetaTtlLearnerOptions {
  /** Null when the host supplied none: the learner stays idle and says so. */
  store: GuideStore | null;
  model: () => ChatModel | null;
  settings: () => MetaTtlSettings;
  clock: Clock;
  /** Observer of every adaptation (the benchmark and meta-training read logs and guides). */
  onAdapted?: (report: AfterEpisodeReport) => void;
}

export class MetaTtlLearner implements Learner {
  readonly id = METATTL_ID;
  readonly adaptation: GuideAdaptation;
  #onAdapted: ((report: AfterEpisodeReport) => void) | undefined;

  constructor(options: MetaTtlLearnerOptions) {
    this.adaptation = new GuideAdaptation({ store: options.store, model: options.model, settings: options.settings, clock: options.clock });
    this.#onAdapted = options.onAdapted;
  }

  /** Sets the observer of every adaptation (for hosts that build learners through the registry). */
  observe(onAdapted: (report: AfterEpisodeReport) => void): void {
    this.#onAdapted = onAdapted;
  }

  async beginEpisode(start: EpisodeStartContext): Promise<MetaTtlPlan | undefined> {
    if (this.adaptation.inactiveReason()) return undefined;
    const inForce = await this.adaptation.guideFor(start.origin, start.task);
    return { key: this.adaptation.keyFor(start.origin, start.task), guide: inForce?.guide ?? null };
  }

  async shapeRequest(context: StepContext, _current: Readonly<RequestShape>): Promise<RequestChange> {
    const plan = MetaTtlPlanSchema.safeParse(context.plan);
    if (!plan.success || plan.data.guide === null || this.adaptation.inactiveReason()) return {};
    // Meta-TTL: the meta-agent's guide replaces the actor's guide (ρ_{k+1} replaces ρ_k).
    return { guide: { mode: 'replace', text: plan.data.guide } };
  }

  async learn(finished: FinishedEpisode, signal?: AbortSignal): Promise<LearnReport> {
    const { episode } = finished;
    if (episode.kind === 'demonstration' || episode.kind === 'imported') {
      return { notes: [] }; // The person acted, not the actor: there is no guide to judge.
    }
    const plan = MetaTtlPlanSchema.safeParse(episode.plans?.[METATTL_ID]);
    const guide = plan.success ? plan.data.guide : null;
    const report = await this.adaptation.afterEpisode(episode.origin, episodeLogFromTrajectory(finished, guide), signal);
    this.#onAdapted?.(report);
    return { notes: report.changed ? [`the meta-agent rewrote the guide for the next attempt (${report.record?.guide?.length ?? 0} characters)`, ...report.notes] : report.notes };
  }
}
