/**
 * One proposal of the agent loop: the step stages in order (step-stages.ts),
 * a learned procedure's next step first when one applies, then the step saved
 * with the episode awaiting approval; and the autonomy gate that decides
 * whether that proposal runs without the person.
 */
import type { PageObservation } from '../page/observation.ts';
import { describeError } from '../errors.ts';
import type { Episode } from '../episode/episode.ts';
import { replayProposal } from '../replay/replay-proposal.ts';
import { autonomyVerdict, planStepVerdict } from './autonomy-stage.ts';
import { maskProposedSecrets, maskStepSecrets } from './decision-guard.ts';
import { TokenBudgetError } from './token-budget.ts';
import { adjustStage, observeStage, proposeStage, rankStage, recordStage, shapeStage, unavailableActions, validateStage } from './step-stages.ts';
import { secretKey, type AgentRuntime } from './agent-runtime.ts';
import { wrongTargetReason } from './wrong-target.ts';
import { parseAction } from '../page/action-grammar.ts';

/** What one proposal left: the saved episode and, when it awaits approval, the page it was proposed on. */
export interface Proposed {
  episode: Episode;
  observation: PageObservation | null;
}

/** One proposal: the stages in order, then the step saved and the episode awaiting approval. */
export async function proposeOnce(rt: AgentRuntime, episodeId: string, excluded: readonly string[]): Promise<Proposed> {
  let episode = await rt.get(episodeId);
  // A demonstration is driven by the person (DemonstrationRecorder): nothing to propose.
  if (episode.status !== 'running' || episode.kind === 'demonstration') return { episode, observation: null };
  const settings = rt.deps.settings();
  const abort = new AbortController();
  rt.inFlight.set(episodeId, abort);
  const started = rt.deps.clock.now();
  const signal = abort.signal;
  try {
    const overBudget = (await rt.deps.tokenBudget?.(episode)) ?? null;
    if (overBudget !== null) throw new TokenBudgetError(overBudget);
    const context = await observeStage(rt.deps.pageFor(episode), episode, settings, signal);
    const notes: string[] = [];
    // A learned procedure's next step, when its precondition holds: no policy or model call.
    const replayed = replayProposal(episode, context, { rejected: excluded, started, now: rt.deps.clock.now() });
    if (replayed?.kind === 'step') {
      const previous = episode.steps.at(-1);
      const steps = previous && previous.chosen === null ? [...episode.steps.slice(0, -1), replayed.step] : [...episode.steps, replayed.step];
      episode = await rt.get(episodeId);
      if (episode.status !== 'running') return { episode, observation: null };
      episode = { ...episode, steps, status: 'awaiting_approval', error: null };
      await rt.save(episode);
      return { episode, observation: context.observation };
    }
    if (replayed) {
      episode = { ...episode, replay: replayed.replay };
      if (replayed.note !== null) notes.push(replayed.note);
      if (replayed.kind === 'finished') {
        const latest = await rt.get(episodeId);
        if (latest.status !== 'running') return { episode: latest, observation: null };
        episode = { ...latest, replay: replayed.replay, status: 'awaiting_verdict' };
        await rt.save(episode);
        return { episode, observation: null };
      }
    }
    const learners = rt.deps.learners();
    const exclude = new Set(excluded);
    const shape = await shapeStage({ learners, context, episode, settings, notes, signal });
    // Asked for once, after the model failed: this step from the policy that needs no model.
    const offline = rt.offlineOnce.delete(episodeId) && rt.deps.offlinePolicy ? rt.deps.offlinePolicy() : null;
    const proposal = await proposeStage(offline ?? rt.deps.policy(), episode, context, shape, exclude, signal);
    notes.push(...proposal.notes);
    const unavailable = unavailableActions(episode, context.observation.url);
    const valid = validateStage(proposal, context.observation, exclude, notes, unavailable);
    // Secrets a candidate types are masked before any learner sees them; the real actions wait in memory until approved.
    const proposed = maskProposedSecrets(valid, context.observation);
    const adjusted = await adjustStage({ learners, context, episode, candidates: proposed.candidates, exclude, unavailable, notes, signal, request: shape });
    const ranked = rankStage({ adjusted, episode, context, settings, exclude, notes, request: shape });
    const recorded = recordStage({ context, proposal, shape, adjusted, ranked, exclude, notes, started, now: rt.deps.clock.now() });
    // Secrets typed by a candidate never reach the store: masked there, kept here until approved.
    const { step, secrets } = maskStepSecrets(recorded, context.observation, proposed.typed);
    for (const [semantic, real] of [...proposed.real, ...secrets]) rt.secrets.set(secretKey(episodeId, step.index, semantic), real);
    // A re-proposal after rejections replaces the pending step rather than adding one.
    const previous = episode.steps.at(-1);
    const steps = previous && previous.chosen === null ? [...episode.steps.slice(0, -1), step] : [...episode.steps, step];
    const replayNow = episode.replay;
    episode = await rt.get(episodeId); // the person may have paused or stopped meanwhile
    if (episode.status !== 'running') return { episode, observation: null };
    episode = { ...episode, ...(replayNow ? { replay: replayNow } : {}), steps, status: 'awaiting_approval', error: null };
    await rt.save(episode);
    return { episode, observation: context.observation };
  } catch (err) {
    if (signal.aborted) return { episode: await rt.get(episodeId), observation: null };
    // Provider down, tab closed, nothing proposable: the episode is kept and paused with a clear message.
    const latest = await rt.get(episodeId);
    const replay = episode.replay ?? latest.replay; // a replay that stopped before the policy failed stays stopped
    const paused = await rt.saveOrPause({ ...latest, ...(replay ? { replay } : {}), status: 'paused', error: describeError(err) }, latest);
    rt.deps.logger.warn('step proposal failed', { episodeId, error: describeError(err) });
    return { episode: paused, observation: null };
  } finally {
    if (rt.inFlight.get(episodeId) === abort) rt.inFlight.delete(episodeId);
  }
}

/**
 * Whether the top candidate runs without the person: the autonomy gate
 * (autonomy-stage.ts) decides from the person's own approvals; its reason is
 * saved on the step either way, for the panel.
 */
export async function runsUnasked(rt: AgentRuntime, episode: Episode, observation: PageObservation): Promise<{ run: boolean; episode: Episode }> {
  // A state-changing step on a page that does not show the task's item asks first, whatever the mode (wrong-target.ts).
  const wrong = wrongTargetOf(episode, observation);
  const verdict = wrong !== null ? { run: false, reason: wrong }
    : episode.steps.at(-1)?.replayStep !== undefined ? planStepVerdict(episode, observation, rt.deps.settings()) : await autonomyVerdict(rt.deps.episodes, episode, observation, rt.deps.settings());
  const latest = await rt.get(episode.id);
  const step = latest.steps.at(-1);
  // The person may have decided, paused or stopped meanwhile: their word wins.
  if (latest.status !== 'awaiting_approval' || !step || step.index !== episode.steps.at(-1)?.index || step.chosen !== null) return { run: false, episode: latest };
  const noted: Episode = { ...latest, steps: [...latest.steps.slice(0, -1), { ...step, autonomy: { ran: verdict.run, reason: verdict.reason } }] };
  await rt.save(noted);
  return { run: verdict.run, episode: noted };
}

/** The wrong-target reason for the pending step's proposal, given what the episode typed so far. */
function wrongTargetOf(episode: Episode, observation: PageObservation): string | null {
  const top = episode.steps.at(-1)?.candidates[0];
  const parsed = top ? parseAction(top.action) : null;
  if (!parsed?.ok) return null;
  const typed = episode.steps.flatMap((s) => {
    const chosen = s.chosen ? parseAction(s.chosen.semantic) : null;
    return chosen?.ok && chosen.action.type === 'fill' ? [chosen.action.text] : [];
  });
  return wrongTargetReason(episode.task, parsed.action, observation, typed);
}
