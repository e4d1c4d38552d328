/**
 * A trajectory: what one episode taught, with the reward on each step (step
 * credit, core/credit/), in the one shape every learner learns from — a live
 * episode, a recorded demonstration, an imported trajectory or a taught
 * correction (learning/learn-trajectory.ts hands it to the learners). The
 * steps no learner may see are left out here.
 */
import type { Episode, StepRecord } from './episode.ts';
import type { RewardSource } from './reward-source.ts';

/** What a trajectory taught (built by `trajectoryOf`, or by a source that knows its rewards). */
export interface FinishedEpisode {
  episode: Episode;
  /** r_t per step, parallel to episode.steps. */
  rewards: number[];
  /** Where the rewards came from (`assignStepRewards().source`); 'person' when absent. */
  rewardSource?: RewardSource;
  /** Parallel to episode.steps, where the source knew them (a demonstration, an imported file): the page titles. */
  pageTitles?: readonly (string | null)[];
  /** Parallel to episode.steps, where an imported file gave them: a short summary of what each page showed. */
  observations?: readonly (string | null)[];
}

/** The one shape every learner learns from. */
export type Trajectory = FinishedEpisode;

/**
 * A step a learner may see: one that ran or had proposals rejected, and not
 * a take-over step the person marked "don't learn from this".
 */
export function isLearnable(step: StepRecord): boolean {
  return (step.chosen !== null || step.rejected.length > 0) && step.takeOver?.learn !== false;
}

/** What the source knows about each step's page, parallel to `episode.steps`. */
export interface StepPages {
  pageTitles?: readonly (string | null)[];
  observations?: readonly (string | null)[];
}

/**
 * The trajectory of a closed episode: its learnable steps, each with the
 * reward already on it (0 when none), and the page facts of those steps.
 */
export function trajectoryOf(episode: Episode, options: { rewardSource?: RewardSource } & StepPages = {}): Trajectory {
  const kept = episode.steps.flatMap((step, i) => (isLearnable(step) ? [{ step, i }] : []));
  const pick = (list: readonly (string | null)[] | undefined) => (list ? { list: kept.map(({ i }) => list[i] ?? null) } : null);
  const titles = pick(options.pageTitles);
  const observations = pick(options.observations);
  return {
    episode: { ...episode, steps: kept.map(({ step }) => step) },
    rewards: kept.map(({ step }) => step.reward ?? 0),
    ...(options.rewardSource ? { rewardSource: options.rewardSource } : {}),
    ...(titles ? { pageTitles: titles.list } : {}),
    ...(observations ? { observations: observations.list } : {}),
  };
}
