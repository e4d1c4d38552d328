/**
 * The agent loop. One step is a pipeline of named stages (step-stages.ts):
 *
 *   observe → shape → propose → validate → adjust → rank → record
 *
 * and an episode is a loop over steps: propose, then wait for the person's
 * decision (or auto-approve a safe action), act, and propose again, until a
 * terminal action, the step limit, a pause or a stop. At the start each
 * learner picks its plan; at the verdict every learner learns
 * (episode-lifecycle.ts).
 *
 * Written against ports, so the service worker (a person approves each step)
 * and the benchmark (a decider approves automatically) run the same code.
 * The episode record is the checkpoint: it is saved after every transition,
 * and nothing lives only in memory, because an MV3 worker can be killed
 * between any two steps.
 */
import type { PageObservation } from '../page/observation.ts';
import { formatAction, parseAction } from '../page/action-grammar.ts';
import { resolveSemanticAction, toSemanticAction } from '../page/semantic-action.ts';
import { regularizeUrl } from '../page/regularize-url.ts';
import { describeError } from '../errors.ts';
import type { Learner } from '../learning/learner.ts';
import type { Decision, Episode } from '../episode/episode.ts';
import { autonomyVerdict, planStepVerdict } from './autonomy-stage.ts';
import { replayAtStart, replayOutcome, withPlanDecision } from './replay-stage.ts';
import { replayProposal } from '../replay/replay-proposal.ts';
import { decisionMismatch, EpisodeLocks, maskEdited, maskStepSecrets, targetChanged, typesTaskSecret, withTargets } from './decision-guard.ts';
import { actionFingerprint, type TargetFingerprint } from '../page/target-fingerprint.ts';
import type { Action, ActionResult } from '../page/action.ts';
import type { StepRecord } from '../episode/episode.ts';
import { TokenBudgetError } from './token-budget.ts';
import { maskTaskSecrets, unmaskTaskSecrets } from '../secrets/task-secrets.ts';
import { containsMask } from '../secrets/secret-kinds.ts';
import { DecisionError, EpisodeNotFoundError, isFinished, type AgentDeps, type DecisionInput, type PlanDecision, type Verdict } from './controller-types.ts';
import { adjustStage, observeStage, proposeStage, rankStage, recordStage, shapeStage, unavailableActions, validateStage } from './step-stages.ts';
import { beginStage, closeEpisode, evaluateStage, learnStage, withLearnNotes } from './episode-lifecycle.ts';
import { shownCorrection } from './shown-correction.ts';

export { DecisionError, EpisodeNotFoundError, isFinished, type AgentDeps, type DecisionInput, type PlanDecision, type StepEvaluator, type Verdict } from './controller-types.ts';

const SUCCESS_THRESHOLD = 0.999;

/** What one proposal left: the saved episode and, when it awaits approval, the page it was proposed on. */
interface Proposed {
  episode: Episode;
  observation: PageObservation | null;
}

export class AgentController {
  /** In-flight work per episode, so stop() can abort a model call. Losing it on a worker restart is harmless. */
  private readonly inFlight = new Map<string, AbortController>();
  private readonly pending = new Map<string, Promise<unknown>>();
  /** One decision, verdict or stop at a time per episode: two approvals sent at once run one action. */
  private readonly locks = new EpisodeLocks();
  /**
   * The real text of candidates that type a secret, by episode, step and
   * (masked) semantic form. Only in memory: after a worker restart such a
   * candidate must be edited again, and the secret never reaches storage.
   */
  private readonly secrets = new Map<string, string>();
  /** Secrets the person typed in the task, by episode and mask (task-secrets.ts); only in memory, like `secrets`. */
  private readonly taskSecrets = new Map<string, Partial<Record<string, string>>>();

  constructor(private readonly deps: AgentDeps) {}

  async start(input: { task: string; startUrl: string; tabId: number | null; kind?: Episode['kind']; awaitProposal?: boolean }): Promise<Episode> {
    // A secret typed in the task is masked in everything stored, exported and prompted; the value stays here.
    const masked = maskTaskSecrets(input.task);
    input = { ...input, task: masked.task };
    const { origin } = regularizeUrl(input.startUrl);
    if (this.deps.settings().agent.askModes[origin] === 'off') throw new DecisionError(`Apprentice is off on ${origin}: choose another mode under "Asking on" to start a task here`);
    const earlier = await this.deps.episodes.list({ origin, task: input.task, limit: 10_000 });
    const learners = this.deps.learners();
    const id = this.deps.newId();
    const attempt = earlier.filter((e) => e.kind !== 'demonstration').length + 1;
    const kind = input.kind ?? 'live';
    const plans = await beginStage(learners, { episodeId: id, task: input.task, origin, startUrl: input.startUrl, attempt, kind }, this.deps.logger);
    const replay = kind === 'demonstration' ? null : await replayAtStart(this.deps, input.task, origin);
    const episode: Episode = {
      id,
      origin,
      task: input.task,
      startUrl: input.startUrl,
      tabId: input.tabId,
      status: 'running',
      steps: [],
      answer: null,
      error: null,
      learners: learners.map((l) => l.id),
      ...(Object.keys(plans).length > 0 ? { plans } : {}),
      attempt,
      kind,
      ...(replay ? { replay } : {}),
      startedAt: this.deps.clock.now(),
      endedAt: null,
    };
    if (Object.keys(masked.secrets).length > 0) this.taskSecrets.set(id, masked.secrets);
    await this.save(episode);
    return this.follow(episode, this.proposeStep(episode.id), input.awaitProposal ?? true);
  }

  async get(episodeId: string): Promise<Episode> {
    const episode = await this.deps.episodes.get(episodeId);
    if (!episode) throw new EpisodeNotFoundError(`no episode ${episodeId}`);
    return episode;
  }

  /** Waits for background work started by start()/decide() without awaiting. */
  async settled(episodeId: string): Promise<Episode> {
    while (this.pending.has(episodeId)) await this.pending.get(episodeId)?.catch(() => undefined);
    return this.get(episodeId);
  }

  /**
   * Proposes, and keeps going while the autonomy gate runs the top candidate:
   * the loop ends when the person is needed or the episode stops running.
   */
  async proposeStep(episodeId: string, options: { exclude?: string[] } = {}): Promise<Episode> {
    let proposed = await this.proposeOnce(episodeId, options.exclude ?? []);
    while (proposed.observation) {
      const gated = await this.runsUnasked(proposed.episode, proposed.observation);
      proposed = { ...proposed, episode: gated.episode };
      if (!gated.run) break;
      const acted = await this.carryOut(episodeId, { kind: 'approve' }, { auto: true });
      if (acted.episode.status !== 'running') return acted.episode;
      proposed = await this.proposeOnce(episodeId, acted.exclude);
    }
    return proposed.episode;
  }

  /**
   * Carries out the person's decision. Returns once the action has run; the
   * next proposal follows (awaited when `awaitNext`, else in the background).
   */
  async decide(episodeId: string, decision: DecisionInput, options: { awaitNext?: boolean; auto?: boolean } = {}): Promise<Episode> {
    const { episode, exclude, next } = await this.carryOut(episodeId, decision, options);
    if (!next) return episode;
    return this.follow(episode, this.proposeStep(episodeId, { exclude }), options.awaitNext ?? true);
  }

  /**
   * The person's answer to an offered plan. Approving runs its first step
   * (the pending proposal) and lets the plan's later steps run unasked as
   * approved; edited values re-bind the plan and re-propose; declining lets
   * the policy propose as it would have without replay.
   */
  async decidePlan(episodeId: string, decision: PlanDecision, options: { awaitNext?: boolean } = {}): Promise<Episode> {
    const changed = await this.locks.run(episodeId, async () => {
      const episode = await this.get(episodeId);
      const next = withPlanDecision(episode, decision);
      await this.save(next.episode);
      return next;
    });
    if (changed.run === 'first_step') {
      const pending = changed.episode.steps.at(-1)!;
      return this.decide(episodeId, { kind: 'approve', step: pending.index, candidate: pending.candidates[0]!.semantic }, options);
    }
    return this.follow(changed.episode, this.proposeStep(episodeId), options.awaitNext ?? true);
  }

  async pause(episodeId: string): Promise<Episode> {
    const episode = await this.get(episodeId);
    if (isFinished(episode) || episode.teaching) return episode; // nothing runs while the person teaches
    this.inFlight.get(episodeId)?.abort();
    const paused: Episode = { ...episode, status: 'paused' };
    await this.save(paused);
    return paused;
  }

  async resume(episodeId: string, options: { awaitNext?: boolean } = {}): Promise<Episode> {
    const episode = await this.get(episodeId);
    if (episode.status !== 'paused' || episode.teaching) return episode;
    const pending = episode.steps.at(-1);
    // A proposal still waiting for a decision stays; otherwise propose afresh.
    if (pending && pending.chosen === null && pending.candidates.length > 0 && episode.error === null) {
      const resumed: Episode = { ...episode, status: 'awaiting_approval' };
      await this.save(resumed);
      return resumed;
    }
    const running: Episode = { ...episode, status: 'running', error: null };
    await this.save(running);
    return this.follow(running, this.proposeStep(episodeId), options.awaitNext ?? true);
  }

  /** Stops the episode; what was approved or rejected is still learned from. */
  async stop(episodeId: string): Promise<Episode> {
    this.inFlight.get(episodeId)?.abort();
    return this.locks.run(episodeId, async () => {
      const episode = await this.get(episodeId);
      if (isFinished(episode)) return episode;
      return this.conclude(episode, 'stopped', null);
    });
  }

  /**
   * Changes the saved episode under its lock: Show me and Take over
   * (teaching-session.ts) set and clear their state this way. `change` may
   * throw to refuse; then nothing is saved.
   */
  async amend(episodeId: string, change: (episode: Episode) => Episode): Promise<Episode> {
    return this.locks.run(episodeId, async () => {
      const next = change(await this.get(episodeId));
      await this.save(next);
      return next;
    });
  }

  /** The end-of-episode verdict: assign rewards, let every learner learn, close. */
  async finish(episodeId: string, verdict: Verdict, options: { runEvaluator?: boolean } = {}): Promise<Episode> {
    return this.locks.run(episodeId, async () => {
      const episode = await this.get(episodeId);
      if (isFinished(episode)) throw new DecisionError(`the episode already ended (${episode.status})`);
      const requested = options.runEvaluator === true;
      const { scores, notes } = await evaluateStage(requested ? this.deps.evaluator() : null, requested, episode, verdict);
      return this.conclude(episode, verdict, scores, notes);
    });
  }

  /** Verdict from a numeric task reward in [0, 1] (the benchmark). */
  static verdictFromReward(reward: number): Verdict {
    return reward >= SUCCESS_THRESHOLD ? 'success' : reward > 0 ? 'partial' : 'failure';
  }

  /** After a worker restart: episodes caught mid-proposal are proposed again (with their checkpointed plans). */
  async resumeUnfinished(): Promise<void> {
    for (const episode of await this.deps.episodes.unfinished()) {
      if (episode.status !== 'running') continue;
      const last = episode.steps.at(-1);
      if (last?.chosen && last.result === null) this.track(episode.id, this.recoverApproved(episode, last));
      else this.track(episode.id, this.proposeStep(episode.id));
    }
  }

  /**
   * An approved step the worker died on. Without an idempotency id the action
   * never started: run it now, once. With one it may have run: the step goes
   * back to the person as "outcome unknown" and nothing runs again.
   */
  private async recoverApproved(episode: Episode, step: StepRecord): Promise<Episode> {
    const chosen = step.chosen!;
    if (chosen.actionId !== undefined) {
      const result: ActionResult = { ok: false, code: 'outcome_unknown', message: 'the worker stopped while this action ran; it may or may not have run' };
      const paused: Episode = {
        ...episode,
        status: 'paused',
        steps: [...episode.steps.slice(0, -1), { ...step, result }],
        error: `Outcome unknown: Apprentice was stopped while running ${chosen.semantic}. Check the page, then resume.`,
      };
      return this.saveOrPause(paused, episode);
    }
    const real = this.secrets.get(secretKey(episode.id, step.index, chosen.semantic)) ?? chosen.action;
    const parsed = parseAction(real);
    if (!parsed.ok || containsMask(real)) {
      const result: ActionResult = { ok: false, code: 'not_run', message: 'the typed secret was not kept across the restart' };
      const paused: Episode = { ...episode, status: 'paused', steps: [...episode.steps.slice(0, -1), { ...step, result }], error: 'Not run: the typed secret was not kept across a restart. Resume and type it again.' };
      return this.saveOrPause(paused, episode);
    }
    const acted = await this.actApproved(episode.id, parsed.action, { semantic: chosen.semantic, shownOn: step.url, expected: chosen.target ?? null });
    return acted.next ? this.proposeStep(episode.id) : acted.episode;
  }

  /** One proposal: the stages in order, then the step saved and the episode awaiting approval. */
  private async proposeOnce(episodeId: string, excluded: readonly string[]): Promise<Proposed> {
    let episode = await this.get(episodeId);
    // A demonstration is driven by the person (DemonstrationRecorder): nothing to propose.
    if (episode.status !== 'running' || episode.kind === 'demonstration') return { episode, observation: null };
    const settings = this.deps.settings();
    const abort = new AbortController();
    this.inFlight.set(episodeId, abort);
    const started = this.deps.clock.now();
    const signal = abort.signal;
    try {
      const overBudget = (await this.deps.tokenBudget?.(episode)) ?? null;
      if (overBudget !== null) throw new TokenBudgetError(overBudget);
      const context = await observeStage(this.deps.pageFor(episode), episode, settings, signal);
      const notes: string[] = [];
      // A learned procedure's next step, when its precondition holds: no policy or model call.
      const replayed = replayProposal(episode, context, { rejected: excluded, started, now: this.deps.clock.now() });
      if (replayed?.kind === 'step') {
        const previous = episode.steps.at(-1);
        const steps = previous && previous.chosen === null ? [...episode.steps.slice(0, -1), replayed.step] : [...episode.steps, replayed.step];
        episode = await this.get(episodeId);
        if (episode.status !== 'running') return { episode, observation: null };
        episode = { ...episode, steps, status: 'awaiting_approval', error: null };
        await this.save(episode);
        return { episode, observation: context.observation };
      }
      if (replayed) {
        episode = { ...episode, replay: replayed.replay };
        if (replayed.note !== null) notes.push(replayed.note);
        if (replayed.kind === 'finished') {
          const latest = await this.get(episodeId);
          if (latest.status !== 'running') return { episode: latest, observation: null };
          episode = { ...latest, replay: replayed.replay, status: 'awaiting_verdict' };
          await this.save(episode);
          return { episode, observation: null };
        }
      }
      const learners = this.deps.learners();
      const exclude = new Set(excluded);
      const shape = await shapeStage({ learners, context, episode, settings, notes, signal });
      const proposal = await proposeStage(this.deps.policy(), episode, context, shape, exclude, signal);
      notes.push(...proposal.notes);
      const unavailable = unavailableActions(episode, context.observation.url);
      const valid = validateStage(proposal, context.observation, exclude, notes, unavailable);
      const adjusted = await adjustStage({ learners, context, episode, candidates: valid, exclude, unavailable, notes, signal, request: shape });
      const ranked = rankStage({ adjusted, episode, context, settings, exclude, notes });
      const recorded = recordStage({ context, proposal, shape, adjusted, ranked, exclude, notes, started, now: this.deps.clock.now() });
      // Secrets typed by a candidate never reach the store: masked there, kept here until approved.
      const { step, secrets } = maskStepSecrets(withTargets(recorded, context.observation), context.observation);
      for (const [semantic, real] of secrets) this.secrets.set(secretKey(episodeId, step.index, semantic), real);
      // A re-proposal after rejections replaces the pending step rather than adding one.
      const previous = episode.steps.at(-1);
      const steps = previous && previous.chosen === null ? [...episode.steps.slice(0, -1), step] : [...episode.steps, step];
      const replayNow = episode.replay;
      episode = await this.get(episodeId); // the person may have paused or stopped meanwhile
      if (episode.status !== 'running') return { episode, observation: null };
      episode = { ...episode, ...(replayNow ? { replay: replayNow } : {}), steps, status: 'awaiting_approval', error: null };
      await this.save(episode);
      return { episode, observation: context.observation };
    } catch (err) {
      if (signal.aborted) return { episode: await this.get(episodeId), observation: null };
      // Provider down, tab closed, nothing proposable: the episode is kept and paused with a clear message.
      const latest = await this.get(episodeId);
      const replay = episode.replay ?? latest.replay; // a replay that stopped before the policy failed stays stopped
      const paused = await this.saveOrPause({ ...latest, ...(replay ? { replay } : {}), status: 'paused', error: describeError(err) }, latest);
      this.deps.logger.warn('step proposal failed', { episodeId, error: describeError(err) });
      return { episode: paused, observation: null };
    } finally {
      if (this.inFlight.get(episodeId) === abort) this.inFlight.delete(episodeId);
    }
  }

  /**
   * Applies a decision without proposing the next step. `next` says whether a
   * proposal should follow (the episode still runs), `exclude` what it must leave out.
   */
  private async carryOut(episodeId: string, decision: DecisionInput, options: { auto?: boolean }): Promise<{ episode: Episode; exclude: string[]; next: boolean }> {
    const approved = await this.locks.run(episodeId, () => this.recordDecision(episodeId, decision, options));
    if (approved.kind === 'done') return approved.outcome;
    const { action, semantic, shownOn, expected, ran } = approved;
    return this.actApproved(episodeId, action, { semantic, shownOn, expected, ...(ran ? { ran } : {}) });
  }

  /**
   * Checks the decision against the pending step and saves it (under the
   * episode's lock). A rejection is complete here; an approval returns the
   * action to run, with the real text of a masked secret.
   */
  private async recordDecision(
    episodeId: string,
    decision: DecisionInput,
    options: { auto?: boolean },
  ): Promise<{ kind: 'done'; outcome: { episode: Episode; exclude: string[]; next: boolean } } | { kind: 'act'; action: Action; semantic: string; shownOn: string; expected: TargetFingerprint | null; ran?: ActionResult }> {
    let episode = await this.get(episodeId);
    if (episode.status !== 'awaiting_approval') throw new DecisionError(`the episode is ${episode.status}, not awaiting a decision`);
    if (episode.teaching && decision.kind !== 'show') throw new DecisionError(teachingRefusal(episode.teaching.mode));
    const step = episode.steps.at(-1);
    if (!step || step.chosen) throw new DecisionError('there is no pending proposal');
    const open = step.candidates.filter((c) => !step.rejected.includes(c.semantic));
    if (decision.kind === 'edit' && decision.step !== undefined && decision.step !== step.index) {
      throw new DecisionError(decisionMismatch(step, { step: decision.step }, null) ?? 'wrong step');
    }

    if (decision.kind === 'reject') {
      const target = decision.index === undefined ? open[0] : step.candidates[decision.index];
      const mismatch = decisionMismatch(step, decision, target ?? null);
      if (mismatch) throw new DecisionError(mismatch);
      if (!target) throw new DecisionError('no such candidate');
      const rejected = [...new Set([...step.rejected, target.semantic])];
      episode = { ...episode, steps: [...episode.steps.slice(0, -1), { ...step, rejected }] };
      const remaining = step.candidates.filter((c) => !rejected.includes(c.semantic));
      if (remaining.length > 0) {
        await this.save(episode);
        return { kind: 'done', outcome: { episode, exclude: [], next: false } };
      }
      // Everything rejected: ask the policy again, without the rejected actions.
      episode = { ...episode, status: 'running' };
      await this.save(episode);
      return { kind: 'done', outcome: { episode, exclude: rejected, next: true } };
    }

    if (decision.kind === 'show') {
      const shown = shownCorrection(episode, step, decision);
      const saved = await this.saveOrPause(shown.episode, episode);
      if (saved.status === 'paused') return { kind: 'done', outcome: { episode: saved, exclude: [], next: false } };
      return { kind: 'act', action: shown.action, semantic: shown.semantic, shownOn: step.url, expected: null, ran: { ok: true, navigated: decision.navigated === true } };
    }

    let run: Action;
    let stored: { action: string; semantic: string };
    let how: Decision;
    let target: TargetFingerprint | null = null;
    if (decision.kind === 'edit') {
      const parsed = parseAction(decision.action);
      if (!parsed.ok) throw new DecisionError(`the edited action does not parse: ${parsed.error.message}`);
      const observation = await this.deps.pageFor(episode).observe({ maxChars: this.deps.settings().agent.observationChars, lastActedRef: null });
      const resolved = resolveSemanticAction(parsed.action, observation);
      if (!resolved.ok) throw new DecisionError(`the edited action does not fit this page: ${resolved.message}`);
      const masked = maskEdited(resolved.action, formatAction(toSemanticAction(resolved.action, observation)), observation);
      run = masked.run;
      stored = masked.stored;
      how = 'edited';
      target = actionFingerprint(resolved.action, observation);
    } else {
      const chosen = decision.kind === 'approve' ? open[0] : step.candidates[decision.index];
      const mismatch = decisionMismatch(step, decision, chosen ?? null);
      if (mismatch) throw new DecisionError(mismatch);
      if (!chosen) throw new DecisionError('no such candidate');
      const kept = this.secrets.get(secretKey(episodeId, step.index, chosen.semantic));
      const fromTask = this.taskSecrets.get(episodeId);
      // Only into a field of the secret's own kind: a mask typed into a comment box stays a mask.
      const real = fromTask && typesTaskSecret(chosen) ? unmaskTaskSecrets(kept ?? chosen.action, fromTask) : kept;
      if (real === undefined && containsMask(chosen.action)) {
        throw new DecisionError('the typed secret was not kept across a restart; edit the action to type it again');
      }
      const parsed = parseAction(real ?? chosen.action);
      if (!parsed.ok) throw new DecisionError(`internal: stored action does not parse: ${parsed.error.message}`);
      run = parsed.action;
      stored = { action: chosen.action, semantic: chosen.semantic };
      target = chosen.target ?? null;
      how = options.auto ? 'auto' : decision.kind === 'approve' ? 'approved' : 'picked';
    }
    // Picking another candidate and editing are corrections; approving (by hand or auto) is not.
    const correction = how === 'picked' ? { correction: 'pick' as const } : how === 'edited' ? { correction: 'edit' as const } : {};
    // A correction overrules the proposal: it joins the step's rejected actions,
    // as Show me's does (shown-correction.ts), so every learner gets its
    // negative signal (issue 22: the rejected proposal is not proposed first again).
    const overruled = how === 'picked' || how === 'edited' ? open[0] : undefined;
    const rejected = overruled && overruled.semantic !== stored.semantic ? [...new Set([...step.rejected, overruled.semantic])] : step.rejected;
    const chosenRecord = { ...stored, decision: how, ...correction, ...(target !== null ? { target } : {}) };
    const approved: Episode = { ...episode, status: 'running', steps: [...episode.steps.slice(0, -1), { ...step, rejected, chosen: chosenRecord }] };
    const saved = await this.saveOrPause(approved, episode);
    // An approval that could not be saved is not carried out.
    if (saved.status === 'paused') return { kind: 'done', outcome: { episode: saved, exclude: [], next: false } };
    // Edited actions are re-checked too: the page may change between the edit and the act.
    return { kind: 'act', action: run, semantic: stored.semantic, shownOn: step.url, expected: target };
  }

  /**
   * Runs an approved, saved action: re-reads the element (role, name, link,
   * form, submit behaviour: what the approval was about), saves an idempotency
   * id, acts — the page layer checks the element once more at the moment it
   * acts — and saves the result. A timed-out action goes back to the person
   * as "outcome unknown". A stop or verdict that came meanwhile is kept: the episode
   * stays ended and nothing more is proposed.
   */
  private async actApproved(
    episodeId: string,
    action: Action,
    shown: { semantic: string; shownOn: string; expected: TargetFingerprint | null; ran?: ActionResult },
  ): Promise<{ episode: Episode; exclude: string[]; next: boolean }> {
    let episode = await this.get(episodeId);
    const page = this.deps.pageFor(episode);
    let refused: string | null = null;
    if (!shown.ran) {
      try {
        const now = await page.observe({ maxChars: this.deps.settings().agent.observationChars, lastActedRef: null });
        refused = targetChanged(action, shown.semantic, now, shown.shownOn, shown.expected);
      } catch (err) {
        refused = describeError(err);
      }
    }
    let result: ActionResult;
    if (shown.ran) {
      result = shown.ran; // the person already did it in the page (Show me)
    } else if (refused !== null) {
      result = { ok: false, code: 'not_run', message: `not run: ${refused}` };
    } else {
      const last = episode.steps.at(-1)!;
      episode = { ...episode, steps: [...episode.steps.slice(0, -1), { ...last, chosen: { ...last.chosen!, actionId: `${episodeId}:${last.index}:${this.deps.clock.now()}` } }] };
      const marked = await this.saveOrPause(episode, episode);
      if (marked.status === 'paused') return { episode: marked, exclude: [], next: false };
      result = await page.act(action, undefined, shown.expected ?? undefined).catch((err: unknown) => ({ ok: false as const, code: 'no_page' as const, message: describeError(err) }));
      // It may or may not have run: never run again without the person.
      if (!result.ok && result.code === 'timeout') result = { ok: false, code: 'outcome_unknown', message: result.message };
    }
    return this.locks.run(episodeId, async () => {
      const latest = await this.get(episodeId);
      const last = latest.steps.at(-1)!;
      // With the result saved, the idempotency id has done its work.
      const { actionId: _done, ...chosen } = last.chosen!;
      const steps = [...latest.steps.slice(0, -1), { ...last, chosen, result }];
      let next: Episode;
      const maxSteps = stepLimitOf(latest, this.deps.learners(), this.deps.settings().agent.maxSteps);
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
      const saved = await this.saveOrPause(next, latest);
      return { episode: saved, exclude: [], next: saved.status === 'running' };
    });
  }

  private async conclude(episode: Episode, outcome: Verdict | 'stopped', evaluatorScores: number[] | null, notes: string[] = []): Promise<Episode> {
    const stepLimit = stepLimitOf(episode, this.deps.learners(), this.deps.settings().agent.maxSteps);
    const { closed, trajectory } = closeEpisode(episode, outcome, { evaluatorScores, notes, rewards: this.deps.settings().rewards, now: this.deps.clock.now(), stepLimit });
    await this.save(closed);
    await replayOutcome(this.deps, closed, outcome);
    const noted = withLearnNotes(closed, await learnStage(this.deps.learners(), trajectory, this.deps.logger));
    if (!noted) return closed;
    await this.save(noted);
    return noted;
  }

  /**
   * Whether the top candidate runs without the person: the autonomy gate
   * (autonomy-stage.ts) decides from the person's own approvals; its reason is
   * saved on the step either way, for the panel.
   */
  private async runsUnasked(episode: Episode, observation: PageObservation): Promise<{ run: boolean; episode: Episode }> {
    const verdict = episode.steps.at(-1)?.replayStep !== undefined ? planStepVerdict(episode, observation, this.deps.settings()) : await autonomyVerdict(this.deps.episodes, episode, observation, this.deps.settings());
    const latest = await this.get(episode.id);
    const step = latest.steps.at(-1);
    // The person may have decided, paused or stopped meanwhile: their word wins.
    if (latest.status !== 'awaiting_approval' || !step || step.index !== episode.steps.at(-1)?.index || step.chosen !== null) return { run: false, episode: latest };
    const noted: Episode = { ...latest, steps: [...latest.steps.slice(0, -1), { ...step, autonomy: { ran: verdict.run, reason: verdict.reason } }] };
    await this.save(noted);
    return { run: verdict.run, episode: noted };
  }

  /** Awaits the follow-up work, or tracks it in the background and returns `now`. */
  private follow(now: Episode, work: Promise<Episode>, await_: boolean): Promise<Episode> {
    if (await_) return work;
    this.track(now.id, work);
    return Promise.resolve(now);
  }

  private track(episodeId: string, work: Promise<unknown>): void {
    const guarded = work.catch((err: unknown) => this.deps.logger.error('episode work failed', { episodeId, error: describeError(err) }));
    this.pending.set(episodeId, guarded);
    void guarded.finally(() => {
      if (this.pending.get(episodeId) === guarded) this.pending.delete(episodeId);
    });
  }

  private async save(episode: Episode): Promise<void> {
    await this.deps.episodes.put(episode);
    this.deps.onUpdate?.(episode);
  }

  /**
   * Saves `episode`; when storage is full, the episode pauses and says why
   * (`fallback` is what is stored now). The paused state is shown even if it
   * cannot be stored either.
   */
  private async saveOrPause(episode: Episode, fallback: Episode): Promise<Episode> {
    try {
      await this.save(episode);
      return episode;
    } catch (err) {
      if (!isStorageFull(err)) throw err;
      const paused: Episode = { ...fallback, status: isFinished(fallback) ? fallback.status : 'paused', error: describeError(err) };
      await this.deps.episodes.put(paused).catch(() => undefined);
      this.deps.onUpdate?.(paused);
      this.deps.logger.warn('storage is full', { episodeId: episode.id });
      return paused;
    }
  }
}

const teachingRefusal = (mode: 'show' | 'takeover'): string =>
  mode === 'show'
    ? 'you are showing this step in the page: do it there, or cancel Show me first'
    : 'you have taken over the page: press Continue first';

const secretKey = (episodeId: string, stepIndex: number, semantic: string): string => `${episodeId}\u0000${stepIndex}\u0000${semantic}`;

/** IndexedDB's quota error, as the idb adapter names it (matched by name: errors cross realms). */
const isStorageFull = (err: unknown): boolean => typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'StorageFullError';

/** The episode's step limit: the first learner whose plan sets one (EvoTest's gene), else the settings'. */
function stepLimitOf(episode: Episode, learners: readonly Learner[], fallback: number): number {
  for (const learner of learners) {
    const plan = episode.plans?.[learner.id];
    const limit = plan === undefined ? undefined : learner.stepLimit?.(plan);
    if (limit !== undefined && Number.isInteger(limit) && limit > 0) return limit;
  }
  return fallback;
}
