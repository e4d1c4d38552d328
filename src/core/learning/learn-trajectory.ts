/**
 * One way to learn (issue 23): a live episode, a recorded demonstration, an
 * imported trajectory and a taught correction all reach the learners by the
 * same call, `learner.learn(trajectory)`, with one Trajectory shape, in the
 * order the caller gives (registry order, enabled learners only: the
 * background's and the benchmark's `learners()`). Learning is best-effort:
 * a learner that fails becomes a note, and the others still learn.
 */
import { describeError } from '../errors.ts';
import type { Logger } from '../ports.ts';
import type { Learner } from './learner.ts';
import type { Trajectory } from '../episode/trajectory.ts';

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
