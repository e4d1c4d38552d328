/**
 * The agent loop's side of replay (src/core/replay): the plan an episode
 * starts with, the person's answer to it, which plan steps may run unasked,
 * and the outcome replay learns from. Best-effort like learning: a replay
 * that cannot be looked up or recorded leaves the policy to do the work.
 */
import type { Action } from '../page/action.ts';
import type { PageObservation } from '../page/observation.ts';
import type { Episode, EpisodeReplay, StepRecord } from '../episode/episode.ts';
import { describeError } from '../errors.ts';
import { bindPlan } from '../replay/match-procedure.ts';
import { planStepEffectChanges } from '../replay/step-effect.ts';
import { replayRecord, tokensPerModelStep } from '../replay/replay-port.ts';
import { classifySensitivity } from './sensitive-actions.ts';
import { DecisionError, type AgentDeps, type PlanDecision, type Verdict } from './controller-types.ts';

/** The replay record an episode starts with, or null (no port, nothing fits, or the lookup failed). */
export async function replayAtStart(deps: AgentDeps, task: string, origin: string): Promise<EpisodeReplay | null> {
  const port = deps.replay;
  if (!port || deps.settings().replay?.enabled === false) return null;
  try {
    const match = await port.find({ task, origin });
    if (match.kind === 'none') return null;
    const site = await deps.episodes.list({ origin, limit: 50 });
    return replayRecord(match, { approved: port.approvePlans === true, tokensPerModelStep: tokensPerModelStep(site) });
  } catch (err) {
    deps.logger.warn('replay lookup failed; the policy runs', { error: describeError(err) });
    return null;
  }
}

/** Tells replay how an episode that ran at least one plan step ended (demotion, success count). */
export async function replayOutcome(deps: AgentDeps, episode: Episode, outcome: Verdict | 'stopped'): Promise<void> {
  const replay = episode.replay;
  if (!deps.replay || !replay || replay.procedureId === '') return;
  if (!episode.steps.some((s) => s.replayStep !== undefined && s.chosen !== null)) return;
  try {
    await deps.replay.record({ procedureId: replay.procedureId, origin: episode.origin, outcome, at: episode.endedAt ?? deps.clock.now() });
  } catch (err) {
    deps.logger.warn('replay outcome not recorded', { episodeId: episode.id, error: describeError(err) });
  }
}

const originOf = (url: string): string | null => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/**
 * Within an approved plan a step runs without asking only when it is the
 * approved step (same target, same values) with the approved effect (its
 * link, form destination, method and data: step-effect.ts), on an origin the
 * plan showed, and not of a kind that always asks (sensitive-actions.ts:
 * secrets, payment, submitting, another origin, downloads, ending the
 * episode). Returns why it asks, or null when it runs.
 */
export function planStepAsks(episode: Episode, pending: StepRecord, action: Action, observation: PageObservation): string | null {
  const replay = episode.replay;
  const at = pending.replayStep;
  if (!replay || replay.status !== 'approved' || !at) return 'there is no approved plan';
  const top = pending.candidates[0];
  const planned = replay.steps[at.step];
  if (!top || !planned || top.semantic !== planned.action) return 'this step differs from the plan you approved';
  const origin = originOf(observation.url);
  if (origin === null || !replay.origins.includes(origin)) return 'the plan you approved did not show this site';
  const previous = episode.steps.at(-2)?.url;
  if (previous !== undefined && originOf(previous) !== origin) return 'the page came from another origin since the last step';
  const changed = planStepEffectChanges(planned.effect, action, observation);
  if (changed.length > 0) return `its element does not do what the plan's step did: ${changed.join('; ')}`;
  return classifySensitivity(action, observation).sensitive ? 'this plan step may be irreversible' : null;
}

/**
 * The episode after the person's answer to an offered plan, and what runs
 * next: its first step (approved as shown), or a new proposal (values
 * edited, or declined: the pending replayed step is dropped).
 */
export function withPlanDecision(episode: Episode, decision: PlanDecision): { episode: Episode; run: 'first_step' | 'propose' } {
  const replay = episode.replay;
  if (!replay || replay.status !== 'offered') throw new DecisionError('there is no plan waiting for approval');
  if (episode.status !== 'awaiting_approval') throw new DecisionError(`the episode is ${episode.status}, not awaiting a decision`);
  const pending = episode.steps.at(-1);
  const dropPending = pending && pending.chosen === null ? episode.steps.slice(0, -1) : episode.steps;
  if (decision.kind === 'decline') {
    return { episode: { ...episode, steps: dropPending, status: 'running', replay: { ...replay, status: 'declined' } }, run: 'propose' };
  }
  const edited = decision.values ?? {};
  const unknown = Object.keys(edited).filter((k) => !(k in replay.values));
  if (unknown.length > 0) throw new DecisionError(`the plan has no value named ${unknown.join(', ')}`);
  const changed = Object.entries(edited).some(([k, v]) => replay.values[k] !== v);
  if (!changed) {
    if (!pending || pending.chosen !== null || pending.replayStep === undefined) throw new DecisionError('the plan has no pending step to run');
    return { episode: { ...episode, replay: { ...replay, status: 'approved' } }, run: 'first_step' };
  }
  const values = { ...replay.values, ...edited };
  const bound = bindPlan(
    {
      id: replay.procedureId, origin: episode.origin, template: replay.template, variables: Object.keys(replay.values),
      steps: replay.abstractSteps, sources: [{ episodeId: episode.id, source: 'live', taught: false, endedAt: null }], endsWithAnswer: replay.endsWithAnswer,
    },
    values,
  );
  if (!bound.ok) throw new DecisionError(bound.message);
  // The edited plan is what the person approved; its steps are proposed afresh from the first.
  return {
    episode: { ...episode, steps: dropPending, status: 'running', replay: { ...replay, values, steps: bound.plan.steps, origins: bound.plan.origins, status: 'approved' } },
    run: 'propose',
  };
}
