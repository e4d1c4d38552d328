/**
 * The replay's part of a proposal (hooked into the agent loop before the
 * policy is asked). While a plan is offered or approved, the next step of
 * the plan is proposed as the only candidate, with no policy or model call,
 * if its precondition holds on the page now. Otherwise the replay stops for
 * the rest of the attempt and says at which step and why; the policy then
 * proposes as it would have without replay.
 */
import type { CandidateRecord, Episode, EpisodeReplay, StepRecord } from '../episode/episode.ts';
import { formatAction, parseAction } from '../page/action-grammar.ts';
import type { SemanticTarget } from '../page/action.ts';
import type { PageObservation } from '../page/observation.ts';
import { proposedStep } from '../episode/step-record.ts';
import { pageKeyOf } from '../page/page-key.ts';
import { checkPrecondition, valuesThePageMustShow } from './replay-step.ts';
import type { Action } from '../page/action.ts';
import { actionFingerprint } from '../page/target-fingerprint.ts';

const targetOf = (action: Action, observation: PageObservation): Pick<CandidateRecord, 'target'> => {
  const target = actionFingerprint(action, observation);
  return target ? { target } : {};
};

export interface ReplayContext {
  stepIndex: number;
  url: string;
  regUrl: string;
  observation: PageObservation;
  effectiveState: string[];
  pageMarks?: string[] | undefined;
}

export type ReplayProposal =
  /** Propose this step (no policy call); the episode's replay record is unchanged. */
  | { kind: 'step'; step: StepRecord }
  /** The plan is done or stopped: the policy proposes; `replay` is the updated record, `note` what to tell the person. */
  | { kind: 'policy'; replay: EpisodeReplay; note: string | null }
  /** Every step ran and nothing is left to answer: the episode waits for the verdict. */
  | { kind: 'finished'; replay: EpisodeReplay; note: string };

const ACTIVE: ReadonlySet<EpisodeReplay['status']> = new Set(['offered', 'approved']);

/** Steps of the plan that ran, and the last replayed step (to see how it went). */
function progress(episode: Episode): { done: number; last: StepRecord | null } {
  const replayed = episode.steps.filter((s) => s.replayStep !== undefined && s.chosen !== null);
  return { done: replayed.length, last: replayed.at(-1) ?? null };
}

const stopAt = (replay: EpisodeReplay, step: number, reason: string): ReplayProposal => ({
  kind: 'policy',
  replay: { ...replay, status: 'fell_back', fallback: { step, reason } },
  note: `replay stopped at step ${step + 1} of ${replay.steps.length}: ${reason}; the policy proposes from here`,
});

/**
 * The element the plan's next step acts on, when the step before it was a
 * plan step that ran: that step may have opened the list, dialog or page the
 * next target is in, so the page is read once it shows (bounded by the page
 * layer). Null otherwise: nothing to wait for.
 */
export function nextPlanTarget(episode: Episode): SemanticTarget | null {
  const replay = episode.replay;
  if (!replay || !ACTIVE.has(replay.status)) return null;
  const { done, last } = progress(episode);
  if (!last || last.result === null || !last.result.ok || done >= replay.steps.length) return null;
  const parsed = parseAction(replay.steps[done]!.action);
  const target = parsed.ok && 'target' in parsed.action ? parsed.action.target : undefined;
  return target?.kind === 'semantic' ? target : null;
}

/** Null when no plan is active: the policy proposes as usual. */
export function replayProposal(episode: Episode, context: ReplayContext, input: { rejected: readonly string[]; started: number; now: number }): ReplayProposal | null {
  const replay = episode.replay;
  if (!replay || !ACTIVE.has(replay.status)) return null;
  const { done, last } = progress(episode);
  if (last) {
    const planned = replay.steps[last.replayStep!.step];
    if (last.result !== null && !last.result.ok) return stopAt(replay, last.replayStep!.step, `the step did not run (${last.result.message})`);
    if (last.chosen!.decision === 'edited' || last.chosen!.semantic !== planned?.action) return stopAt(replay, last.replayStep!.step, 'the person changed the step');
  }
  const pending = episode.steps.at(-1);
  if (pending && pending.chosen === null && pending.replayStep !== undefined && input.rejected.length > 0) {
    return stopAt(replay, pending.replayStep.step, 'the person rejected the step');
  }
  if (done >= replay.steps.length) {
    const finished: EpisodeReplay = { ...replay, status: 'finished' };
    if (replay.endsWithAnswer) return { kind: 'policy', replay: finished, note: `replay finished its ${replay.steps.length} steps; the policy gives the answer` };
    return { kind: 'finished', replay: finished, note: `replay finished its ${replay.steps.length} steps; say how it went` };
  }
  const planned = replay.steps[done]!;
  const check = checkPrecondition(planned, context.observation, valuesThePageMustShow(replay.abstractSteps, replay.values, done), Object.values(replay.values));
  if (!check.ok) return stopAt(replay, done, check.reason);
  const candidate: CandidateRecord = {
    action: formatAction(check.action),
    semantic: planned.action,
    // No rationale: the panel shows a candidate's rationale as the model's words, and no model wrote this one
    // (the step's note says where it came from).
    origin: 'memory',
    baseLogit: 0, adjustedLogit: 0, baseProb: 1, adjustedProb: 1,
    // The element as the page shows it now: what running it unasked is about (a later procedure learns its effect
    // from it, and the act-time check compares with it).
    ...targetOf(check.action, context.observation),
  };
  const step = proposedStep(context, {
    pageKey: pageKeyOf(context.observation),
    logitSource: 'memory',
    candidates: [candidate],
    replayed: [],
    learningNotes: [`replayed from memory · 0 model calls: step ${done + 1} of ${replay.steps.length} of "${replay.template}"`],
    rejected: [],
    usage: { calls: 0, promptTokens: 0, completionTokens: 0 },
    replayStep: { procedureId: replay.procedureId, step: done, of: replay.steps.length },
  }, input);
  return { kind: 'step', step };
}
