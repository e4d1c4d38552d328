/**
 * What the agent loop asks of replay (AgentDeps.replay): the plan for a task,
 * and the outcome of an episode that replayed. `ProcedureLibrary` implements
 * it on the learners' stores; without it the loop never replays.
 */
import type { Episode, EpisodeReplay } from '../episode/episode.ts';
import type { PlanMatch } from './match-procedure.ts';

export interface ReplayPort {
  /** The plan for a task on a site: a bound plan, a refusal that says why, or none. */
  find(input: { task: string; origin: string }): Promise<PlanMatch>;
  /** After the verdict of an episode in which a plan ran at least one step. */
  record(input: { procedureId: string; origin: string; outcome: 'success' | 'failure' | 'partial' | 'stopped'; at: number }): Promise<void>;
  /**
   * Whether a plan starts approved (the benchmark's decider approves every
   * proposal anyway) instead of being offered to the person first.
   */
  approvePlans?: boolean;
}

/** Tokens (prompt + completion) one model-driven step cost lately on this site: the mean of its last `window` such steps. */
export function tokensPerModelStep(episodes: readonly Episode[], window = 20): number | null {
  const steps = [...episodes]
    .sort((a, b) => b.startedAt - a.startedAt)
    .flatMap((e) => [...e.steps].reverse())
    .filter((s) => s.modelCalls > 0)
    .slice(0, window);
  if (steps.length === 0) return null;
  return Math.round(steps.reduce((n, s) => n + s.promptTokens + s.completionTokens, 0) / steps.length);
}

/** Replayed steps of an episode that ran, and the tokens they saved at the plan's estimate (null when unknown). */
export function replaySaving(episode: Episode): { replayedSteps: number; tokensSaved: number | null } {
  const replayedSteps = episode.steps.filter((s) => s.replayStep !== undefined && s.chosen !== null).length;
  const per = episode.replay?.tokensPerModelStep ?? null;
  return { replayedSteps, tokensSaved: per === null ? null : per * replayedSteps };
}

/** The episode's replay record for a match (null for none). */
export function replayRecord(match: PlanMatch, options: { approved: boolean; tokensPerModelStep: number | null }): EpisodeReplay | null {
  if (match.kind === 'none') return null;
  if (match.kind === 'refused') {
    return {
      procedureId: '', template: '', values: {}, abstractSteps: [], steps: [], origins: [], endsWithAnswer: false,
      status: 'refused', fallback: null, message: match.message, tokensPerModelStep: options.tokensPerModelStep,
    };
  }
  const { plan } = match;
  return {
    procedureId: plan.procedure.id,
    template: plan.procedure.template,
    values: plan.values,
    abstractSteps: plan.procedure.steps,
    steps: plan.steps,
    origins: plan.origins,
    endsWithAnswer: plan.procedure.endsWithAnswer,
    status: options.approved ? 'approved' : 'offered',
    fallback: null,
    message: null,
    tokensPerModelStep: options.tokensPerModelStep,
  };
}
