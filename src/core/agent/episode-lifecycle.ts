/**
 * The ends of an episode: at the start each learner picks its plan; at the
 * end, rewards per step, then every learner learns from the trajectory
 * (learning is best-effort: failures become notes on the last step).
 */
import type { Logger } from '../ports.ts';
import type { RewardSettings } from '../settings.ts';
import type { FinishedEpisode, Learner, EpisodeStartContext } from '../learning/learner.ts';
import { assignStepRewards } from '../credit/rewards.ts';
import { learnFromTrajectory } from '../learning/learn-trajectory.ts';
import { trajectoryOf } from '../episode/trajectory.ts';
import { describeError } from '../errors.ts';
import type { Episode } from '../episode/episode.ts';
import type { StepEvaluator, Verdict } from './controller-types.ts';

/** Closes the episode: status, end time, rewards on executed steps, and the trajectory the learners learn from. */
export function closeEpisode(
  episode: Episode,
  outcome: Verdict | 'stopped',
  input: { evaluatorScores: number[] | null; notes: string[]; rewards: RewardSettings; now: number; stepLimit?: number },
): { closed: Episode; trajectory: FinishedEpisode } {
  const executedSteps = episode.steps.filter((s) => s.chosen);
  const ran = executedSteps.filter((s) => s.chosen!.decision !== 'rejected').length;
  // Judged after the last step unless the episode only ended because it ran out of steps.
  const judgedAfterLastStep = input.stepLimit !== undefined && ran > 0 && ran < input.stepLimit;
  const { rewards, source } = assignStepRewards({ steps: executedSteps, outcome, evaluatorScores: input.evaluatorScores, settings: input.rewards, judgedAfterLastStep, task: episode.task });
  let i = 0;
  const steps = episode.steps.map((s) => (s.chosen ? { ...s, reward: rewards[i++] ?? 0 } : s));
  const closed: Episode = {
    ...episode,
    steps,
    status: outcome,
    endedAt: input.now,
    error: input.notes.length ? [episode.error, ...input.notes].filter(Boolean).join('; ') : episode.error,
  };
  // A take-over the person marked "don't learn from this" reaches no learner (trajectoryOf leaves it out).
  return { closed, trajectory: trajectoryOf(closed, { rewardSource: source }) };
}

/** learn: every learner in registry order, by the one path demonstrations and imports take too; their notes, prefixed with their id. */
export async function learnStage(learners: Learner[], trajectory: FinishedEpisode, logger: Logger): Promise<string[]> {
  return (await learnFromTrajectory(learners, trajectory, { logger, source: 'episode' })).notes;
}

/** The learners' notes go on the last step's notes, where the panel shows them. */
export function withLearnNotes(closed: Episode, notes: string[]): Episode | null {
  if (notes.length === 0 || closed.steps.length === 0) return null;
  const last = closed.steps.at(-1)!;
  return { ...closed, steps: [...closed.steps.slice(0, -1), { ...last, learningNotes: [...last.learningNotes, ...notes] }] };
}

/** Runs the optional step evaluator; without a model, person signals only. */
export async function evaluateStage(evaluator: StepEvaluator | null, requested: boolean, episode: Episode, verdict: Verdict): Promise<{ scores: number[] | null; notes: string[] }> {
  const notes: string[] = [];
  if (requested && !evaluator) notes.push('evaluator: no model configured, person signals only');
  if (!requested || !evaluator) return { scores: null, notes };
  try {
    const executed = episode.steps.filter((s) => s.chosen);
    const out = await evaluator({
      task: episode.task,
      steps: executed.map((s) => ({ action: s.chosen!.semantic, url: s.url, outcome: s.result?.ok ? 'ok' : (s.result?.message ?? 'not run') })),
      verdict,
      answer: episode.answer,
    });
    return { scores: out.scores, notes: [...notes, ...out.notes] };
  } catch (err) {
    return { scores: null, notes: [...notes, `evaluator failed, person signals only (${describeError(err)})`] };
  }
}

/**
 * begin: each learner's plan for the episode, by learner id (only learners
 * that return one). A failing learner runs without a plan; the failure is
 * logged (there is no step yet to note it on).
 */
export async function beginStage(learners: Learner[], start: EpisodeStartContext, logger: Logger): Promise<Record<string, unknown>> {
  const plans: Record<string, unknown> = {};
  for (const learner of learners) {
    if (!learner.beginEpisode) continue;
    try {
      const plan = await learner.beginEpisode(start);
      if (plan !== undefined) plans[learner.id] = plan;
    } catch (err) {
      logger.warn(`${learner.id}: beginEpisode failed`, { episodeId: start.episodeId, error: describeError(err) });
    }
  }
  return plans;
}
