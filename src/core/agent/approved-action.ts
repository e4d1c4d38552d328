/**
 * Carrying out an approved action, and an approved action that a worker
 * restart interrupted.
 */
import { parseAction } from '../page/action-grammar.ts';
import type { TargetFingerprint } from '../page/target-fingerprint.ts';
import { FINISH_TEXT, type Action, type ActionResult } from '../page/action.ts';
import { answerSourceOn } from '../page/answer-source.ts';
import { maskObservation } from '../secrets/mask-secrets.ts';
import type { Episode, StepRecord } from '../episode/episode.ts';
import { actFindingAgain, checkBeforeActing, observeOptionsFor, withNote, type BeforeActing } from './stale-target.ts';
import { isFinished } from './controller-types.ts';
import { secretKey, type AgentRuntime, type DecisionOutcome } from './agent-runtime.ts';
import { containsMask } from '../secrets/secret-kinds.ts';
import { semanticAsChange } from './edit-as-change.ts';

/**
 * An approved step the worker died on. Without an idempotency id the action
 * never started: run it now, once. With one it may have run: the step goes
 * back to the person as "outcome unknown" and nothing runs again.
 */
export async function recoverApproved(
  rt: AgentRuntime,
  episode: Episode,
  step: StepRecord,
  proposeStep: (episodeId: string) => Promise<Episode>,
): Promise<Episode> {
  const chosen = step.chosen!;
  if (chosen.actionId !== undefined) {
    const result: ActionResult = { ok: false, code: 'outcome_unknown', message: 'the worker stopped while this action ran; it may or may not have run' };
    const paused: Episode = {
      ...episode,
      status: 'paused',
      steps: [...episode.steps.slice(0, -1), { ...step, result }],
      error: `Outcome unknown: Apprentice was stopped while running ${chosen.semantic}. Check the page, then resume.`,
    };
    return rt.saveOrPause(paused, episode);
  }
  const real = rt.secrets.get(secretKey(episode.id, step.index, chosen.semantic)) ?? chosen.action;
  const parsed = parseAction(real);
  if (!parsed.ok || containsMask(real)) {
    const result: ActionResult = { ok: false, code: 'not_run', message: 'the typed secret was not kept across the restart' };
    const paused: Episode = { ...episode, status: 'paused', steps: [...episode.steps.slice(0, -1), { ...step, result }], error: 'Not run: the typed secret was not kept across a restart. Resume and type it again.' };
    return rt.saveOrPause(paused, episode);
  }
  const acted = await actApproved(rt, episode.id, parsed.action, { semantic: chosen.semantic, shownOn: step.url, expected: chosen.target ?? null });
  return acted.next ? proposeStep(episode.id) : acted.episode;
}

/**
 * Runs an approved, saved action: re-reads the element (role, name, link,
 * form, submit behaviour: what the approval was about), saves an idempotency
 * id, acts — the page layer checks the element once more at the moment it
 * acts — and saves the result. A timed-out action goes back to the person
 * as "outcome unknown". A stop or verdict that came meanwhile is kept: the episode
 * stays ended and nothing more is proposed.
 */
export async function actApproved(
  rt: AgentRuntime,
  episodeId: string,
  action: Action,
  shown: { semantic: string; shownOn: string; expected: TargetFingerprint | null; ran?: ActionResult },
): Promise<DecisionOutcome> {
  let episode = await rt.get(episodeId);
  const page = rt.deps.pageFor(episode);
  const observeOptions = observeOptionsFor(action, rt.deps.settings().agent.observationChars, episode.task);
  const before = shown.ran ? null : await checkBeforeActing(page, action, shown, observeOptions);
  const refused = before?.kind === 'refused' ? before.reason : null;
  let result: ActionResult;
  if (shown.ran) {
    result = shown.ran; // the person already did it in the page (Show me)
  } else if (refused !== null) {
    result = { ok: false, code: 'not_run', message: `not run: ${refused}` };
  } else if (before?.kind === 'gone') {
    result = before.result; // nothing ran: the policy proposes again on the page as it is
  } else if (before?.kind === 'run') {
    const last = episode.steps.at(-1)!;
    episode = { ...episode, steps: [...episode.steps.slice(0, -1), { ...last, chosen: { ...last.chosen!, actionId: `${episodeId}:${last.index}:${rt.deps.clock.now()}` } }] };
    const marked = await rt.saveOrPause(episode, episode);
    if (marked.status === 'paused') return { episode: marked, exclude: [], next: false };
    result = withNote(await actFindingAgain(page, before.action, shown, observeOptions), before.note);
    // It may or may not have run: never run again without the person.
    if (!result.ok && result.code === 'timeout') result = { ok: false, code: 'outcome_unknown', message: result.message };
  }
  return rt.locks.run(episodeId, async () => {
    const latest = await rt.get(episodeId);
    const last = latest.steps.at(-1)!;
    // With the result saved, the idempotency id has done its work.
    const { actionId: _done, ...ran } = last.chosen!;
    // A whole text typed over a multi-line one is kept as the change it made (text-change.ts): that is what is learned.
    const chosen = { ...ran, semantic: semanticAsChange(ran.semantic, result) };
    const steps = [...latest.steps.slice(0, -1), { ...last, chosen, result, ...answerPlace(action, before) }];
    let next: Episode;
    const maxSteps = rt.stepLimit(latest);
    if (isFinished(latest)) {
      // Stopped or judged while the action ran: keep the result, nothing more.
      next = { ...latest, steps };
    } else if (refused !== null) {
      next = { ...latest, steps, status: 'paused', error: `Not run: ${refused}. Resume to get a new proposal.` };
    } else if (!result.ok && result.code === 'outcome_unknown') {
      next = { ...latest, steps, status: 'paused', error: `Outcome unknown: ${last.chosen!.semantic} did not answer in time; it may or may not have run. Check the page, then resume.` };
    } else if (!result.ok && result.code === 'not_run') {
      // The page layer refused at the moment of acting: what changed goes back to the person.
      next = { ...latest, steps, status: 'paused', error: `Not run: ${result.message}. Resume to get a new proposal.` };
    } else if (action.type === 'send_msg_to_user' || action.type === 'report_infeasible') {
      const answer = action.type === 'send_msg_to_user' ? action.text : action.reason;
      next = { ...latest, steps, answer, status: 'awaiting_verdict' };
    } else if (steps.length >= maxSteps) {
      next = { ...latest, steps, status: 'awaiting_verdict', error: `step limit (${maxSteps}) reached` };
    } else {
      // A pause requested while the action ran is kept.
      next = { ...latest, steps, status: latest.status === 'paused' ? 'paused' : 'running' };
    }
    const saved = await rt.saveOrPause(next, latest);
    return { episode: saved, exclude: [], next: saved.status === 'running' };
  });
}

/**
 * Where the page showed an answer the person or the policy gave (`answerFrom`): read from the page as it was
 * observed just before (whole, secrets masked), not from the step's 4,000-character digest.
 */
function answerPlace(action: Action, before: BeforeActing | null): Pick<StepRecord, 'answerFrom'> {
  if (action.type !== 'send_msg_to_user' || action.text === FINISH_TEXT || action.text.trim() === '' || before?.kind !== 'run') return {};
  return { answerFrom: answerSourceOn(maskObservation(before.observation), action.text) };
}
