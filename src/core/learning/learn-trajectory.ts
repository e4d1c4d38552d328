/**
 * One way to learn (issue 23): a live episode, a recorded demonstration, an
 * imported trajectory and a taught correction all reach the learners by the
 * same call, `learner.learn(trajectory)`, with one Trajectory shape, in the
 * order the caller gives (registry order, enabled learners only: the
 * background's and the benchmark's `learners()`). Learning is best-effort:
 * a learner that fails becomes a note, and the others still learn.
 */
import type { Episode, StepRecord } from '../episode/episode.ts';
import type { RewardSource } from '../episode/reward-source.ts';
import { describeError } from '../errors.ts';
import type { Logger } from '../ports.ts';
import type { Learner, Trajectory } from './learner.ts';

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

export interface LearnOutcome {
  /** What the learners reported and what failed, each prefixed with the learner's id. */
  notes: string[];
  /** The sum of what the learners said they added or changed (`LearnReport.learned`). */
  learned: number;
}

/** What is being learned from, for the failure note: "learning from this episode failed". */
export type TrajectorySource = 'episode' | 'demonstration' | 'imported trajectory';

/** Every given learner learns from the trajectory, one after another, exactly once each. */
export async function learnFromTrajectory(
  learners: readonly Learner[],
  trajectory: Trajectory,
  options: { logger: Logger; source?: TrajectorySource; signal?: AbortSignal },
): Promise<LearnOutcome> {
  const source = options.source ?? 'episode';
  const outcome: LearnOutcome = { notes: [], learned: 0 };
  for (const learner of learners) {
    if (!learner.learn) continue;
    try {
      const report = await learner.learn(trajectory, options.signal);
      if (!report) continue;
      outcome.notes.push(...report.notes.map((n) => `${learner.id}: ${n}`));
      outcome.learned += report.learned ?? 0;
    } catch (err) {
      outcome.notes.push(`${learner.id}: learning from this ${source} failed (${describeError(err)})`);
      options.logger.warn(`${learner.id}: learning from ${source} failed`, { episodeId: trajectory.episode.id, error: describeError(err) });
    }
  }
  return outcome;
}
