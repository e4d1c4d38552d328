/**
 * The person's decision on the pending proposal, checked and saved: a
 * rejection, a pick, an edit, an approval or a step shown in the page (Show me).
 */
import { formatAction, parseAction } from '../page/action-grammar.ts';
import { resolveSemanticAction, toSemanticAction } from '../page/semantic-action.ts';
import { actionFingerprint, type TargetFingerprint } from '../page/target-fingerprint.ts';
import type { Action, ActionResult } from '../page/action.ts';
import { unmaskTaskSecrets } from '../secrets/task-secrets.ts';
import { containsMask } from '../secrets/secret-kinds.ts';
import type { CandidateRecord, Decision, Episode, StepRecord } from '../episode/episode.ts';
import { decisionMismatch, maskEdited, typesTaskSecret } from './decision-guard.ts';
import { DecisionError } from './controller-types.ts';
import type { DecisionInput } from './person-input.ts';
import { shownCorrection } from './shown-correction.ts';
import { observeOptionsFor } from './stale-target.ts';
import { secretKey, type AgentRuntime, type DecisionOutcome } from './agent-runtime.ts';

/** A decision either complete once saved (`done`), or an approved action still to run (`act`). */
export type RecordedDecision =
  | { kind: 'done'; outcome: DecisionOutcome }
  | { kind: 'act'; action: Action; semantic: string; shownOn: string; expected: TargetFingerprint | null; ran?: ActionResult };

/**
 * Checks the decision against the pending step and saves it (under the
 * episode's lock). A rejection is complete here; an approval returns the
 * action to run, with the real text of a masked secret.
 */
export async function recordDecision(
  rt: AgentRuntime,
  episodeId: string,
  decision: DecisionInput,
  options: { auto?: boolean },
): Promise<RecordedDecision> {
  const pending = await pendingStep(rt, episodeId, decision);
  if (decision.kind === 'reject') return recordRejection(rt, pending, decision);
  if (decision.kind === 'show') return recordShown(rt, pending, decision);
  const chosen = decision.kind === 'edit' ? await editedAction(rt, pending.episode, decision.action, decision.done === true) : candidateAction(rt, pending, decision, options);
  return recordApproval(rt, pending, chosen);
}

/** The episode awaiting a decision, its pending step, and the step's candidates not rejected yet. */
interface PendingStep {
  episode: Episode;
  step: StepRecord;
  open: CandidateRecord[];
}

/** What an approval, pick or edit runs, and how it is stored. */
interface ChosenAction {
  run: Action;
  stored: { action: string; semantic: string };
  how: Decision;
  target: TargetFingerprint | null;
  /** "Task is done" while the proposal waited: the finishing step, not a correction. */
  done?: true;
}

async function pendingStep(rt: AgentRuntime, episodeId: string, decision: DecisionInput): Promise<PendingStep> {
  const episode = await rt.get(episodeId);
  if (episode.status !== 'awaiting_approval') throw new DecisionError(`the episode is ${episode.status}, not awaiting a decision`);
  if (episode.teaching && decision.kind !== 'show') throw new DecisionError(teachingRefusal(episode.teaching.mode));
  const step = episode.steps.at(-1);
  if (!step || step.chosen) throw new DecisionError('there is no pending proposal');
  const open = step.candidates.filter((c) => !step.rejected.includes(c.semantic));
  if (decision.kind === 'edit' && decision.step !== undefined && decision.step !== step.index) {
    throw new DecisionError(decisionMismatch(step, { step: decision.step }, null) ?? 'wrong step');
  }
  return { episode, step, open };
}

/** A rejection: the candidate joins the step's rejected actions; when none is left, the policy is asked again without them. */
async function recordRejection(rt: AgentRuntime, { episode, step, open }: PendingStep, decision: Extract<DecisionInput, { kind: 'reject' }>): Promise<RecordedDecision> {
  const target = decision.index === undefined ? open[0] : step.candidates[decision.index];
  const mismatch = decisionMismatch(step, decision, target ?? null);
  if (mismatch) throw new DecisionError(mismatch);
  if (!target) throw new DecisionError('no such candidate');
  const rejected = [...new Set([...step.rejected, target.semantic])];
  let saved: Episode = { ...episode, steps: [...episode.steps.slice(0, -1), { ...step, rejected }] };
  const remaining = step.candidates.filter((c) => !rejected.includes(c.semantic));
  if (remaining.length > 0) {
    await rt.save(saved);
    return { kind: 'done', outcome: { episode: saved, exclude: [], next: false } };
  }
  // Everything rejected: ask the policy again, without the rejected actions.
  saved = { ...saved, status: 'running' };
  await rt.save(saved);
  return { kind: 'done', outcome: { episode: saved, exclude: rejected, next: true } };
}

/** Show me: the step the person did in the page is the pending step's action; it already ran. */
async function recordShown(rt: AgentRuntime, { episode, step }: PendingStep, decision: Extract<DecisionInput, { kind: 'show' }>): Promise<RecordedDecision> {
  const shown = shownCorrection(episode, step, decision);
  const saved = await rt.saveOrPause(shown.episode, episode);
  if (saved.status === 'paused') return { kind: 'done', outcome: { episode: saved, exclude: [], next: false } };
  return { kind: 'act', action: shown.action, semantic: shown.semantic, shownOn: step.url, expected: null, ran: { ok: true, navigated: decision.navigated === true } };
}

/** An edited action: parsed, resolved on the page as it is now, a typed secret masked in what is stored. */
async function editedAction(rt: AgentRuntime, episode: Episode, text: string, done: boolean): Promise<ChosenAction> {
  const parsed = parseAction(text);
  if (!parsed.ok) throw new DecisionError(`the edited action does not parse: ${parsed.error.message}`);
  if (done && parsed.action.type !== 'send_msg_to_user') throw new DecisionError('"Task is done" finishes with send_msg_to_user, not another action');
  const observation = await rt.deps.pageFor(episode).observe(observeOptionsFor(parsed.action, rt.deps.settings().agent.observationChars, episode.task));
  const resolved = resolveSemanticAction(parsed.action, observation);
  if (!resolved.ok) throw new DecisionError(`the edited action does not fit this page: ${resolved.message}`);
  const masked = maskEdited(resolved.action, formatAction(toSemanticAction(resolved.action, observation)), observation);
  return { run: masked.run, stored: masked.stored, how: 'edited', target: actionFingerprint(resolved.action, observation), ...(done ? { done: true as const } : {}) };
}

/** An approved or picked candidate, with the real text of a secret it types (kept in memory, or the task's own). */
function candidateAction(
  rt: AgentRuntime,
  { episode, step, open }: PendingStep,
  decision: Extract<DecisionInput, { kind: 'approve' | 'pick' }>,
  options: { auto?: boolean },
): ChosenAction {
  const chosen = decision.kind === 'approve' ? open[0] : step.candidates[decision.index];
  const mismatch = decisionMismatch(step, decision, chosen ?? null);
  if (mismatch) throw new DecisionError(mismatch);
  if (!chosen) throw new DecisionError('no such candidate');
  const kept = rt.secrets.get(secretKey(episode.id, step.index, chosen.semantic));
  const fromTask = rt.taskSecrets.get(episode.id);
  // Only into a field of the secret's own kind: a mask typed into a comment box stays a mask.
  const real = fromTask && typesTaskSecret(chosen) ? unmaskTaskSecrets(kept ?? chosen.action, fromTask) : kept;
  if (real === undefined && containsMask(chosen.action)) {
    throw new DecisionError('the typed secret was not kept across a restart; edit the action to type it again');
  }
  const parsed = parseAction(real ?? chosen.action);
  if (!parsed.ok) throw new DecisionError(`internal: stored action does not parse: ${parsed.error.message}`);
  return {
    run: parsed.action,
    stored: { action: chosen.action, semantic: chosen.semantic },
    how: options.auto ? 'auto' : decision.kind === 'approve' ? 'approved' : 'picked',
    target: chosen.target ?? null,
  };
}

/** Saves the chosen action as the step's decision and returns it to run (nothing runs when the save paused the episode). */
async function recordApproval(rt: AgentRuntime, { episode, step, open }: PendingStep, { run, stored, how, target, done }: ChosenAction): Promise<RecordedDecision> {
  // Picking another candidate and editing are corrections; approving (by hand or auto) is not,
  // nor is "Task is done" (the person's verdict: the finishing step, marked `done`).
  const correction = done ? { done } : how === 'picked' ? { correction: 'pick' as const } : how === 'edited' ? { correction: 'edit' as const } : {};
  // A correction overrules the proposal: it joins the step's rejected actions,
  // as Show me's does (shown-correction.ts), so every learner gets its
  // negative signal (issue 22: the rejected proposal is not proposed first again).
  const overruled = !done && (how === 'picked' || how === 'edited') ? open[0] : undefined;
  const rejected = overruled && overruled.semantic !== stored.semantic ? [...new Set([...step.rejected, overruled.semantic])] : step.rejected;
  const chosenRecord = { ...stored, decision: how, ...correction, ...(target !== null ? { target } : {}) };
  const approved: Episode = { ...episode, status: 'running', steps: [...episode.steps.slice(0, -1), { ...step, rejected, chosen: chosenRecord }] };
  const saved = await rt.saveOrPause(approved, episode);
  // An approval that could not be saved is not carried out.
  if (saved.status === 'paused') return { kind: 'done', outcome: { episode: saved, exclude: [], next: false } };
  // Edited actions are re-checked too: the page may change between the edit and the act.
  return { kind: 'act', action: run, semantic: stored.semantic, shownOn: step.url, expected: target };
}

const teachingRefusal = (mode: 'show' | 'takeover'): string =>
  mode === 'show'
    ? 'you are showing this step in the page: do it there, or cancel Show me first'
    : 'you have taken over the page: press Continue first';
