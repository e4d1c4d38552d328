/**
 * What the agent controller's parts share (agent-controller.ts,
 * step-proposal.ts, decision-recording.ts, approved-action.ts): the ports,
 * the per-episode locks and in-flight work, the secrets kept only in memory,
 * and saving the episode record, which is the checkpoint.
 */
import { describeError } from '../errors.ts';
import type { Learner } from '../learning/learner.ts';
import type { Episode } from '../episode/episode.ts';
import { EpisodeLocks } from './decision-guard.ts';
import { EpisodeNotFoundError, isFinished, type AgentDeps } from './controller-types.ts';

/** What a decision left: the saved episode, whether a proposal should follow, and what it must leave out. */
export interface DecisionOutcome {
  episode: Episode;
  exclude: string[];
  next: boolean;
}

export class AgentRuntime {
  /** In-flight work per episode, so stop() can abort a model call. Losing it on a worker restart is harmless. */
  readonly inFlight = new Map<string, AbortController>();
  /** One decision, verdict or stop at a time per episode: two approvals sent at once run one action. */
  readonly locks = new EpisodeLocks();
  /**
   * The real text of candidates that type a secret, by episode, step and
   * (masked) semantic form. Only in memory: after a worker restart such a
   * candidate must be edited again, and the secret never reaches storage.
   */
  readonly secrets = new Map<string, string>();
  /** Secrets the person typed in the task, by episode and mask (task-secrets.ts); only in memory, like `secrets`. */
  readonly taskSecrets = new Map<string, Partial<Record<string, string>>>();
  /** Episodes whose next proposal comes from the offline policy, once (the person asked after a model failure). */
  readonly offlineOnce = new Set<string>();

  constructor(readonly deps: AgentDeps) {}

  async get(episodeId: string): Promise<Episode> {
    const episode = await this.deps.episodes.get(episodeId);
    if (!episode) throw new EpisodeNotFoundError(`no episode ${episodeId}`);
    return episode;
  }

  async save(episode: Episode): Promise<void> {
    await this.deps.episodes.put(episode);
    this.deps.onUpdate?.(episode);
  }

  /**
   * Saves `episode`; when storage is full, the episode pauses and says why
   * (`fallback` is what is stored now). The paused state is shown even if it
   * cannot be stored either.
   */
  async saveOrPause(episode: Episode, fallback: Episode): Promise<Episode> {
    try {
      await this.save(episode);
      return episode;
    } catch (err) {
      if (!isStorageFull(err)) throw err;
      const paused: Episode = { ...fallback, status: isFinished(fallback) ? fallback.status : 'paused', error: describeError(err) };
      await this.deps.episodes.put(paused).catch(() => undefined);
      this.deps.onUpdate?.(paused);
      this.deps.logger.warn('storage is full', { episodeId: episode.id });
      return paused;
    }
  }

  /** The episode's step limit: the first learner whose plan sets one (an evolved configuration's gene), else the settings'. */
  stepLimit(episode: Episode): number {
    return stepLimitOf(episode, this.deps.learners(), this.deps.settings().agent.maxSteps);
  }
}

export const secretKey = (episodeId: string, stepIndex: number, semantic: string): string => `${episodeId}\u0000${stepIndex}\u0000${semantic}`;

/** IndexedDB's quota error, as the idb adapter names it (matched by name: errors cross realms). */
const isStorageFull = (err: unknown): boolean => typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'StorageFullError';

function stepLimitOf(episode: Episode, learners: readonly Learner[], fallback: number): number {
  for (const learner of learners) {
    const plan = episode.plans?.[learner.id];
    const limit = plan === undefined ? undefined : learner.stepLimit?.(plan);
    if (limit !== undefined && Number.isInteger(limit) && limit > 0) return limit;
  }
  return fallback;
}
