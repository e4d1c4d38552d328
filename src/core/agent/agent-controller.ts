/**
 * The agent loop. One step is a pipeline of named stages (step-stages.ts):
 *
 *   observe → shape → propose → validate → adjust → rank → record
 *
 * and an episode is a loop over steps: propose (step-proposal.ts), then wait
 * for the person's decision (decision-recording.ts) or auto-approve a safe
 * action, act (approved-action.ts), and propose again, until a terminal
 * action, the step limit, a pause or a stop. At the start each learner picks
 * its plan; at the verdict every learner learns (episode-lifecycle.ts).
 *
 * Written against ports, so the service worker (a person approves each step)
 * and the benchmark (a decider approves automatically) run the same code.
 * The episode record is the checkpoint: it is saved after every transition
 * (agent-runtime.ts), and nothing lives only in memory, because an MV3 worker
 * can be killed between any two steps.
 */
import { regularizeUrl } from '../page/regularize-url.ts';
import { describeError } from '../errors.ts';
import type { Episode } from '../episode/episode.ts';
import { replayAtStart, replayOutcome, withPlanDecision } from './replay-stage.ts';
import { maskTaskSecrets } from '../secrets/task-secrets.ts';
import { maskedPage } from '../secrets/masked-page.ts';
import { DecisionError, isFinished, type AgentDeps, type DecisionInput, type PlanDecision, type Verdict } from './controller-types.ts';
import { beginStage, closeEpisode, evaluateStage, learnStage, withLearnNotes } from './episode-lifecycle.ts';
import { AgentRuntime, type DecisionOutcome } from './agent-runtime.ts';
import { proposeOnce, runsUnasked } from './step-proposal.ts';
import { recordDecision } from './decision-recording.ts';
import { actApproved, recoverApproved } from './approved-action.ts';

export { DecisionError, EpisodeNotFoundError, isFinished, type AgentDeps, type DecisionInput, type PlanDecision, type StepEvaluator, type Verdict } from './controller-types.ts';

const SUCCESS_THRESHOLD = 0.999;

export class AgentController {
  private readonly pending = new Map<string, Promise<unknown>>();
  /** Ports, locks, in-flight work, in-memory secrets and saving, shared with the loop's parts. */
  private readonly rt: AgentRuntime;
  private readonly deps: AgentDeps;

  constructor(deps: AgentDeps) {
    this.deps = deps;
    // Every page is read with its secret fields masked, whatever the driver does.
    this.rt = new AgentRuntime({ ...deps, pageFor: (episode) => maskedPage(deps.pageFor(episode)) });
  }

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
    if (Object.keys(masked.secrets).length > 0) this.rt.taskSecrets.set(id, masked.secrets);
    await this.save(episode);
    return this.follow(episode, this.proposeStep(episode.id), input.awaitProposal ?? true);
  }

  async get(episodeId: string): Promise<Episode> {
    return this.rt.get(episodeId);
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
    let proposed = await proposeOnce(this.rt, episodeId, options.exclude ?? []);
    while (proposed.observation) {
      const gated = await runsUnasked(this.rt, proposed.episode, proposed.observation);
      proposed = { ...proposed, episode: gated.episode };
      if (!gated.run) break;
      const acted = await this.carryOut(episodeId, { kind: 'approve' }, { auto: true });
      if (acted.episode.status !== 'running') return acted.episode;
      proposed = await proposeOnce(this.rt, episodeId, acted.exclude);
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
    const changed = await this.rt.locks.run(episodeId, async () => {
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
    this.rt.inFlight.get(episodeId)?.abort();
    const paused: Episode = { ...episode, status: 'paused' };
    await this.save(paused);
    return paused;
  }

  /** `offlineOnce`: the next proposal comes from the offline policy (after the model failed), then the configured one again. */
  async resume(episodeId: string, options: { awaitNext?: boolean; offlineOnce?: boolean } = {}): Promise<Episode> {
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
    if (options.offlineOnce === true) this.rt.offlineOnce.add(episodeId);
    return this.follow(running, this.proposeStep(episodeId), options.awaitNext ?? true);
  }

  /** Stops the episode; what was approved or rejected is still learned from. */
  async stop(episodeId: string): Promise<Episode> {
    this.rt.inFlight.get(episodeId)?.abort();
    return this.rt.locks.run(episodeId, async () => {
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
    return this.rt.locks.run(episodeId, async () => {
      const next = change(await this.get(episodeId));
      await this.save(next);
      return next;
    });
  }

  /**
   * The end-of-episode verdict: assign rewards, let every learner learn,
   * close. `answer`: the person's own answer ("Task is done"), kept unless
   * the agent already gave one.
   */
  async finish(episodeId: string, verdict: Verdict, options: { runEvaluator?: boolean; answer?: string } = {}): Promise<Episode> {
    return this.rt.locks.run(episodeId, async () => {
      const stored = await this.get(episodeId);
      if (isFinished(stored)) throw new DecisionError(`the episode already ended (${stored.status})`);
      const episode = options.answer !== undefined && stored.answer === null ? { ...stored, answer: options.answer } : stored;
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
      if (last?.chosen && last.result === null) this.track(episode.id, recoverApproved(this.rt, episode, last, (id) => this.proposeStep(id)));
      else this.track(episode.id, this.proposeStep(episode.id));
    }
  }

  /**
   * Applies a decision without proposing the next step. `next` says whether a
   * proposal should follow (the episode still runs), `exclude` what it must leave out.
   */
  private async carryOut(episodeId: string, decision: DecisionInput, options: { auto?: boolean }): Promise<DecisionOutcome> {
    const approved = await this.rt.locks.run(episodeId, () => recordDecision(this.rt, episodeId, decision, options));
    if (approved.kind === 'done') return approved.outcome;
    const { action, semantic, shownOn, expected, ran } = approved;
    return actApproved(this.rt, episodeId, action, { semantic, shownOn, expected, ...(ran ? { ran } : {}) });
  }

  private async conclude(episode: Episode, outcome: Verdict | 'stopped', evaluatorScores: number[] | null, notes: string[] = []): Promise<Episode> {
    const stepLimit = this.rt.stepLimit(episode);
    const { closed, trajectory } = closeEpisode(episode, outcome, { evaluatorScores, notes, rewards: this.deps.settings().rewards, now: this.deps.clock.now(), stepLimit });
    await this.save(closed);
    await replayOutcome(this.deps, closed, outcome);
    const noted = withLearnNotes(closed, await learnStage(this.deps.learners(), trajectory, this.deps.logger));
    if (!noted) return closed;
    await this.save(noted);
    return noted;
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
    await this.rt.save(episode);
  }
}
