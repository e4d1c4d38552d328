/**
 * Knowing it is done, measured. Without a done oracle (`--no-oracle`) the
 * runner no longer stops an episode when the goal is reached: the agent must
 * end it itself, with an answer or "the task is done". These figures say how
 * often a successful episode was ended by the agent, and how many steps it
 * took after the goal was first reached (the finish step itself counts: 1 is
 * a clean stop).
 */
import type { Episode } from '../src/core/episode/episode.ts';
import { parseAction } from '../src/core/page/action-grammar.ts';
import { isTerminalAction } from '../src/core/page/action-vocabulary.ts';
import type { AttemptRecord } from './metrics.ts';

/** How one episode ended: by the agent's own terminal action or not, and the steps after the goal. */
export function endingOf(episode: Episode, goalAt: number | null): NonNullable<AttemptRecord['ending']> {
  const executed = episode.steps.filter((s) => s.chosen && s.result !== null);
  const last = executed.at(-1)?.chosen;
  const parsed = last ? parseAction(last.semantic) : null;
  const byAgent = parsed !== null && parsed.ok && isTerminalAction(parsed.action);
  return { byAgent, goalAtStep: goalAt, stepsAfterGoal: goalAt === null ? null : executed.length - goalAt };
}

export interface EndingSummary {
  learner: string;
  successes: number;
  endedByAgent: number;
  /** Mean and maximum steps after the goal, over successes the agent ended. */
  meanStepsAfterGoal: number | null;
  maxStepsAfterGoal: number | null;
}

/** Per learner, over successful alone attempts (taught ones are ended by the teacher's stop). */
export function summarizeEndings(records: readonly AttemptRecord[]): EndingSummary[] {
  const learners = [...new Set(records.map((r) => r.learner))];
  return learners.map((learner) => {
    const wins = records.filter((r) => r.learner === learner && r.outcome === 'success' && !r.taught && r.ending);
    const ended = wins.filter((r) => r.ending!.byAgent);
    const after = ended.map((r) => r.ending!.stepsAfterGoal).filter((n): n is number => n !== null);
    return {
      learner,
      successes: wins.length,
      endedByAgent: ended.length,
      meanStepsAfterGoal: after.length ? after.reduce((a, b) => a + b, 0) / after.length : null,
      maxStepsAfterGoal: after.length ? Math.max(...after) : null,
    };
  });
}

/** The summary as report lines. */
export function endingLines(records: readonly AttemptRecord[]): string[] {
  return summarizeEndings(records).map((s) => {
    const share = s.successes === 0 ? 'not measured (no successful alone attempt)' : `${s.endedByAgent}/${s.successes} (${((100 * s.endedByAgent) / s.successes).toFixed(1)}%)`;
    const after = s.meanStepsAfterGoal === null ? '–' : `mean ${s.meanStepsAfterGoal.toFixed(2)}, max ${s.maxStepsAfterGoal}`;
    return `- ${s.learner}: ended its successful alone attempts itself: ${share}; steps after the goal (the finish included): ${after}`;
  });
}
