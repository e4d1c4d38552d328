/**
 * The agent loop as a step state machine:
 *
 *   observe → retrieve → candidates → adjust → propose → await approval → act → observe …
 *
 * Written against ports, so the service worker (a person approves each step)
 * and the benchmark (a decider approves automatically) run the same code.
 * The episode record is the checkpoint: it is saved after every transition of
 * the machine, and nothing lives only in memory, because an MV3 worker can be
 * killed between any two steps.
 */
import type { Clock, Logger, PageDriver } from '../ports.ts';
import type { Settings } from '../settings.ts';
import type { CandidatePolicy, PolicyProposal, StepHistoryItem } from '../policy/policy.ts';
import type { Learner, StepContext } from '../learning/learner.ts';
import type { Action } from '../page/action.ts';
import type { PageObservation } from '../page/observation.ts';
import { formatAction, parseAction } from '../page/action-grammar.ts';
import { resolveSemanticAction, toSemanticAction } from '../page/semantic-action.ts';
import { renderObservation } from '../page/render-observation.ts';
import { regularizeUrl } from '../page/regularize-url.ts';
import { computeEffectiveState } from '../learning/effective-state.ts';
import { pageKeyOf } from '../page/page-key.ts';
import { finishProposal } from './proposal-stage.ts';
import { assignStepRewards } from '../learning/rewards.ts';
import { describeError } from '../errors.ts';
import type { CandidateRecord, Decision, Episode, StepRecord } from './episode.ts';
import type { EpisodeStore } from './episode-store.ts';
import { classifySensitivity } from './sensitive-actions.ts';
import { unadjustedCandidates } from './unadjusted-candidates.ts';

export type DecisionInput =
  | { kind: 'approve' }
  | { kind: 'pick'; index: number }
  | { kind: 'edit'; action: string }
  | { kind: 'reject'; index?: number | undefined };

export type Verdict = 'success' | 'failure' | 'partial';

/** Scores each executed step −3..+3 after the episode (JitRL's evaluator). */
export type StepEvaluator = (
  input: { task: string; steps: { action: string; url: string; outcome: string }[]; verdict: Verdict; answer: string | null },
  signal?: AbortSignal,
) => Promise<{ scores: number[]; notes: string[] }>;

export interface AgentDeps {
  episodes: EpisodeStore;
  /** The page the episode runs on (a tab in the extension, a Playwright page in the benchmark). */
  pageFor(episode: Episode): PageDriver;
  policy(): CandidatePolicy;
  learners(): Learner[];
  evaluator(): StepEvaluator | null;
  settings(): Settings;
  clock: Clock;
  logger: Logger;
  newId(): string;
  /** Called after every saved change (the UI broadcast). */
  onUpdate?(episode: Episode): void;
}

/** A decision that cannot be carried out (unparseable edit, wrong state…): nothing changed. */
export class DecisionError extends Error {
  override name = 'DecisionError';
}

export class EpisodeNotFoundError extends Error {
  override name = 'EpisodeNotFoundError';
}

const SUCCESS_THRESHOLD = 0.999;

export class AgentController {
  /** In-flight work per episode, so stop() can abort a model call. Losing it on a worker restart is harmless. */
  private readonly inFlight = new Map<string, AbortController>();
  private readonly pending = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: AgentDeps) {}

  async start(input: {
    task: string;
    startUrl: string;
    tabId: number | null;
    kind?: Episode['kind'];
    awaitProposal?: boolean;
  }): Promise<Episode> {
    const { origin } = regularizeUrl(input.startUrl);
    const earlier = await this.deps.episodes.list({ origin, task: input.task, limit: 10_000 });
    const now = this.deps.clock.now();
    const episode: Episode = {
      id: this.deps.newId(),
      origin,
      task: input.task,
      startUrl: input.startUrl,
      tabId: input.tabId,
      status: 'running',
      steps: [],
      answer: null,
      error: null,
      learners: this.deps.learners().map((l) => l.id),
      attempt: earlier.filter((e) => e.kind !== 'demonstration').length + 1,
      kind: input.kind ?? 'live',
      startedAt: now,
      endedAt: null,
    };
    await this.save(episode);
    const next = this.proposeStep(episode.id);
    if (input.awaitProposal ?? true) return next;
    this.track(episode.id, next);
    return episode;
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

  /** observe → retrieve → candidates → adjust → propose. Leaves the episode awaiting approval. */
  async proposeStep(episodeId: string, options: { exclude?: string[] } = {}): Promise<Episode> {
    let episode = await this.get(episodeId);
    // A demonstration is driven by the person (DemonstrationRecorder): nothing to propose.
    if (episode.status !== 'running' || episode.kind === 'demonstration') return episode;
    const settings = this.deps.settings();
    const abort = new AbortController();
    this.inFlight.set(episodeId, abort);
    const started = this.deps.clock.now();
    try {
      const page = this.deps.pageFor(episode);
      const previous = episode.steps.at(-1);
      const observation = await page.observe(
        { maxChars: settings.agent.observationChars, lastActedRef: lastActedRef(previous) },
        abort.signal,
      );
      const { origin, regUrl } = regularizeUrl(observation.url);
      const effectiveState = computeEffectiveState(
        episode.steps.filter((s) => s.chosen).map((s) => ({ regUrl: s.regUrl, semantic: s.chosen!.semantic, ok: s.result?.ok === true && !(s.result.ok && s.result.navigated) })),
        regUrl,
      );
      // A re-proposal after rejections replaces the pending step and keeps its index: steps are 0..n−1.
      const replacing = previous !== undefined && previous.chosen === null;
      const stepIndex = replacing ? previous.index : episode.steps.length;
      const pageKey = pageKeyOf(observation);
      const context: StepContext = {
        episodeId, stepIndex, task: episode.task, origin, url: observation.url, regUrl, observation, effectiveState,
      };
      const notes: string[] = [];
      const learners = this.deps.learners();

      // Learning is best-effort: a failing learner is noted, never fatal.
      const sections = [];
      for (const learner of learners) {
        if (!learner.promptSections) continue;
        try {
          sections.push(...(await learner.promptSections(context, abort.signal)));
        } catch (err) {
          notes.push(`${learner.id}: replay skipped (${describeError(err)})`);
        }
      }

      const exclude = new Set(options.exclude ?? []);
      const proposal = await this.deps.policy().propose(
        {
          task: episode.task,
          observation,
          renderedObservation: renderObservation(observation),
          history: historyOf(episode),
          sections,
          numCandidates: settings.jitrl.numCandidates + exclude.size,
          temperature: settings.jitrl.temperature,
        },
        abort.signal,
      );
      notes.push(...proposal.notes);
      const valid = validCandidates(proposal, observation, exclude, notes);
      if (valid.candidates.length === 0) {
        throw new DecisionError('The policy proposed no action that fits this page. Edit an action, or stop.');
      }

      const toSemantic = (action: Action) => formatAction(toSemanticAction(action, observation));
      const resolve = (semantic: string): Action | null => {
        const parsed = parseAction(semantic);
        if (!parsed.ok) return null;
        const resolved = resolveSemanticAction(parsed.action, observation);
        if (!resolved.ok) return null;
        return exclude.has(formatAction(toSemanticAction(resolved.action, observation))) ? null : resolved.action;
      };

      let records: CandidateRecord[] | null = null;
      let actions: Action[] = [];
      let v: number | null = null;
      let neighbours: StepRecord['neighbours'] = [];
      let dropped = 0;
      const adjuster = learners.find((l) => l.adjust);
      if (adjuster?.adjust) {
        try {
          const out = await adjuster.adjust({ context, candidates: valid.candidates, resolve, toSemantic }, abort.signal);
          records = out.candidates;
          actions = out.actions;
          v = out.v;
          neighbours = out.neighbours;
          dropped = out.droppedMemoryActions;
          notes.push(...out.notes);
        } catch (err) {
          notes.push(`${adjuster.id}: logits left unadjusted (${describeError(err)})`);
        }
      }
      if (!records) {
        const base = unadjustedCandidates(valid.candidates, toSemantic);
        records = base.records;
        actions = base.actions;
      }
      // Loops, then the proposal (sampled, argmax or exploited) first and the rest by rank.
      const earlier = replacing ? episode.steps.slice(0, -1) : episode.steps;
      const finished = finishProposal({
        records, actions, earlier, pageKey,
        selection: { mode: settings.agent.selection, temperature: settings.agent.samplingTemperature },
        drawKey: `${settings.agent.seed}:${episode.origin}:${episode.task}:${episode.attempt}:${stepIndex}:${exclude.size}`,
      });
      notes.push(...finished.notes);
      const step: StepRecord = {
        index: stepIndex,
        url: observation.url,
        regUrl,
        effectiveState,
        pageKey,
        logitSource: proposal.logitSource,
        candidates: finished.candidates,
        selection: finished.selection,
        ...(finished.loop ? { loop: finished.loop } : {}),
        v,
        neighbours,
        droppedMemoryActions: dropped,
        replayed: sections.map((s) => s.id),
        learningNotes: notes,
        chosen: null,
        rejected: [...exclude],
        result: null,
        reward: null,
        decisionLatencyMs: this.deps.clock.now() - started,
        modelCalls: proposal.usage.calls,
        promptTokens: proposal.usage.promptTokens,
        completionTokens: proposal.usage.completionTokens,
        startedAt: started,
      };
      // A re-proposal after rejections replaces the pending step rather than adding one.
      const steps = [...earlier, step];
      episode = await this.get(episodeId); // the person may have paused or stopped meanwhile
      if (episode.status !== 'running') return episode;
      episode = { ...episode, steps, status: 'awaiting_approval', error: null };
      await this.save(episode);
      return this.maybeAutoApprove(episode, observation);
    } catch (err) {
      if (abort.signal.aborted) return this.get(episodeId);
      // Provider down, tab closed, nothing proposable: the episode is kept and paused with a clear message.
      const latest = await this.get(episodeId);
      const paused: Episode = { ...latest, status: 'paused', error: describeError(err) };
      await this.save(paused);
      this.deps.logger.warn('step proposal failed', { episodeId, error: describeError(err) });
      return paused;
    } finally {
      if (this.inFlight.get(episodeId) === abort) this.inFlight.delete(episodeId);
    }
  }

  /**
   * Carries out the person's decision. Returns once the action has run; the
   * next proposal follows (awaited when `awaitNext`, else in the background).
   */
  async decide(episodeId: string, decision: DecisionInput, options: { awaitNext?: boolean; auto?: boolean } = {}): Promise<Episode> {
    let episode = await this.get(episodeId);
    if (episode.status !== 'awaiting_approval') throw new DecisionError(`the episode is ${episode.status}, not awaiting a decision`);
    const step = episode.steps.at(-1);
    if (!step || step.chosen) throw new DecisionError('there is no pending proposal');
    const open = step.candidates.filter((c) => !step.rejected.includes(c.semantic));

    if (decision.kind === 'reject') {
      const target = decision.index === undefined ? open[0] : step.candidates[decision.index];
      if (!target) throw new DecisionError('no such candidate');
      const rejected = [...new Set([...step.rejected, target.semantic])];
      episode = { ...episode, steps: [...episode.steps.slice(0, -1), { ...step, rejected }] };
      const remaining = step.candidates.filter((c) => !rejected.includes(c.semantic));
      if (remaining.length > 0) {
        await this.save(episode);
        return episode;
      }
      // Everything rejected: ask the policy again, without the rejected actions.
      episode = { ...episode, status: 'running' };
      await this.save(episode);
      const next = this.proposeStep(episodeId, { exclude: rejected });
      if (options.awaitNext ?? true) return next;
      this.track(episodeId, next);
      return episode;
    }

    let actionText: string;
    let semantic: string;
    let how: Decision;
    const page = this.deps.pageFor(episode);
    if (decision.kind === 'edit') {
      const parsed = parseAction(decision.action);
      if (!parsed.ok) throw new DecisionError(`the edited action does not parse: ${parsed.error.message}`);
      const observation = await page.observe({ maxChars: this.deps.settings().agent.observationChars, lastActedRef: null });
      const resolved = resolveSemanticAction(parsed.action, observation);
      if (!resolved.ok) throw new DecisionError(`the edited action does not fit this page: ${resolved.message}`);
      actionText = formatAction(resolved.action);
      semantic = formatAction(toSemanticAction(resolved.action, observation));
      how = 'edited';
    } else {
      const chosen = decision.kind === 'approve' ? open[0] : step.candidates[decision.index];
      if (!chosen) throw new DecisionError('no such candidate');
      actionText = chosen.action;
      semantic = chosen.semantic;
      how = options.auto ? 'auto' : decision.kind === 'approve' ? 'approved' : 'picked';
    }

    const parsed = parseAction(actionText);
    if (!parsed.ok) throw new DecisionError(`internal: stored action does not parse: ${parsed.error.message}`);
    const action = parsed.action;
    episode = { ...episode, status: 'running', steps: [...episode.steps.slice(0, -1), { ...step, chosen: { action: actionText, semantic, decision: how } }] };
    await this.save(episode);

    const result = await page.act(action).catch((err: unknown) => ({ ok: false as const, code: 'no_page' as const, message: describeError(err) }));
    episode = await this.get(episodeId);
    const last = episode.steps.at(-1)!;
    const steps = [...episode.steps.slice(0, -1), { ...last, result }];
    const settings = this.deps.settings();
    if (action.type === 'send_msg_to_user' || action.type === 'report_infeasible') {
      const answer = action.type === 'send_msg_to_user' ? action.text : action.reason;
      episode = { ...episode, steps, answer, status: 'awaiting_verdict' };
    } else if (steps.length >= settings.agent.maxSteps) {
      episode = { ...episode, steps, status: 'awaiting_verdict', error: `step limit (${settings.agent.maxSteps}) reached` };
    } else {
      // A pause requested while the action ran is kept.
      episode = { ...episode, steps, status: episode.status === 'paused' ? 'paused' : 'running' };
    }
    await this.save(episode);
    if (episode.status !== 'running') return episode;
    const next = this.proposeStep(episodeId);
    if (options.awaitNext ?? true) return next;
    this.track(episodeId, next);
    return episode;
  }

  async pause(episodeId: string): Promise<Episode> {
    const episode = await this.get(episodeId);
    if (isFinished(episode)) return episode;
    this.inFlight.get(episodeId)?.abort();
    const paused: Episode = { ...episode, status: 'paused' };
    await this.save(paused);
    return paused;
  }

  async resume(episodeId: string, options: { awaitNext?: boolean } = {}): Promise<Episode> {
    const episode = await this.get(episodeId);
    if (episode.status !== 'paused') return episode;
    const pending = episode.steps.at(-1);
    // A proposal still waiting for a decision stays; otherwise propose afresh.
    if (pending && pending.chosen === null && pending.candidates.length > 0 && episode.error === null) {
      const resumed: Episode = { ...episode, status: 'awaiting_approval' };
      await this.save(resumed);
      return resumed;
    }
    const running: Episode = { ...episode, status: 'running', error: null };
    await this.save(running);
    const next = this.proposeStep(episodeId);
    if (options.awaitNext ?? true) return next;
    this.track(episodeId, next);
    return running;
  }

  /** Stops the episode; what was approved or rejected is still learned from. */
  async stop(episodeId: string): Promise<Episode> {
    const episode = await this.get(episodeId);
    if (isFinished(episode)) return episode;
    this.inFlight.get(episodeId)?.abort();
    return this.conclude(episode, 'stopped', null);
  }

  /** The end-of-episode verdict: assign rewards, let every learner learn, close. */
  async finish(episodeId: string, verdict: Verdict, options: { runEvaluator?: boolean } = {}): Promise<Episode> {
    const episode = await this.get(episodeId);
    if (isFinished(episode)) throw new DecisionError(`the episode already ended (${episode.status})`);
    let scores: number[] | null = null;
    const notes: string[] = [];
    const evaluator = options.runEvaluator ? this.deps.evaluator() : null;
    if (options.runEvaluator && !evaluator) notes.push('evaluator: no model configured, person signals only');
    if (evaluator) {
      try {
        const executed = episode.steps.filter((s) => s.chosen);
        const out = await evaluator({
          task: episode.task,
          steps: executed.map((s) => ({ action: s.chosen!.semantic, url: s.url, outcome: s.result?.ok ? 'ok' : (s.result?.message ?? 'not run') })),
          verdict,
          answer: episode.answer,
        });
        scores = out.scores;
        notes.push(...out.notes);
      } catch (err) {
        notes.push(`evaluator failed, person signals only (${describeError(err)})`);
      }
    }
    return this.conclude(episode, verdict, scores, notes);
  }

  /** Verdict from a numeric task reward in [0, 1] (the benchmark). */
  static verdictFromReward(reward: number): Verdict {
    return reward >= SUCCESS_THRESHOLD ? 'success' : reward > 0 ? 'partial' : 'failure';
  }

  /** After a worker restart: episodes caught mid-proposal are proposed again. */
  async resumeUnfinished(): Promise<void> {
    for (const episode of await this.deps.episodes.unfinished()) {
      if (episode.status === 'running') this.track(episode.id, this.proposeStep(episode.id));
    }
  }

  private async conclude(episode: Episode, outcome: Verdict | 'stopped', evaluatorScores: number[] | null, notes: string[] = []): Promise<Episode> {
    const executedSteps = episode.steps.filter((s) => s.chosen);
    const { rewards, source } = assignStepRewards({ steps: executedSteps, outcome, evaluatorScores, settings: this.deps.settings().rewards });
    let i = 0;
    const steps = episode.steps.map((s) => (s.chosen ? { ...s, reward: rewards[i++] ?? 0 } : s));
    const closed: Episode = {
      ...episode,
      steps,
      status: outcome,
      endedAt: this.deps.clock.now(),
      error: notes.length ? [episode.error, ...notes].filter(Boolean).join('; ') : episode.error,
    };
    await this.save(closed);
    const learnable = steps.filter((s) => s.chosen || s.rejected.length);
    const finished = { episode: { ...closed, steps: learnable }, rewards: learnable.map((s) => s.reward ?? 0), rewardSource: source };
    const learnNotes: string[] = [];
    for (const learner of this.deps.learners()) {
      if (!learner.learn) continue;
      try {
        const report = await learner.learn(finished);
        if (report) learnNotes.push(...report.notes.map((n) => `${learner.id}: ${n}`));
      } catch (err) {
        learnNotes.push(`${learner.id}: learning from this episode failed (${describeError(err)})`);
        this.deps.logger.warn(`${learner.id}: learning from episode failed`, { episodeId: episode.id, error: describeError(err) });
      }
    }
    if (learnNotes.length === 0 || closed.steps.length === 0) return closed;
    // What the learners said goes on the last step's notes, where the panel shows them.
    const last = closed.steps.at(-1)!;
    const noted: Episode = { ...closed, steps: [...closed.steps.slice(0, -1), { ...last, learningNotes: [...last.learningNotes, ...learnNotes] }] };
    await this.save(noted);
    return noted;
  }

  private async maybeAutoApprove(episode: Episode, observation: PageObservation): Promise<Episode> {
    const settings = this.deps.settings();
    if (!settings.agent.autoApproveOrigins.includes(episode.origin)) return episode;
    const top = episode.steps.at(-1)?.candidates[0];
    if (!top) return episode;
    const parsed = parseAction(top.action);
    if (!parsed.ok || classifySensitivity(parsed.action, observation).sensitive) return episode;
    return this.decide(episode.id, { kind: 'approve' }, { auto: true });
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
}

export const isFinished = (e: Episode): boolean => ['success', 'failure', 'partial', 'stopped', 'error'].includes(e.status);

function lastActedRef(step: StepRecord | undefined): string | null {
  if (!step?.chosen) return null;
  const m = /\[([^\]]+)\]/.exec(step.chosen.action);
  return m?.[1] ?? null;
}

function historyOf(episode: Episode): StepHistoryItem[] {
  return episode.steps
    .filter((s) => s.chosen)
    .map((s) => ({ action: s.chosen!.semantic, outcome: s.result ? (s.result.ok ? 'ok' : `${s.result.code}: ${s.result.message}`) : 'not run', url: s.url }));
}

/** Drops candidates that do not fit the page or were rejected; duplicates keep their best logit. */
function validCandidates(proposal: PolicyProposal, observation: PageObservation, exclude: Set<string>, notes: string[]) {
  const seen = new Map<string, number>();
  const candidates: PolicyProposal['candidates'] = [];
  for (const c of proposal.candidates) {
    const resolved = resolveSemanticAction(c.action, observation);
    if (!resolved.ok) {
      notes.push(`dropped ${formatAction(c.action)}: ${resolved.message}`);
      continue;
    }
    const key = formatAction(toSemanticAction(resolved.action, observation));
    if (exclude.has(key)) continue;
    const at = seen.get(key);
    if (at !== undefined) {
      if (c.logit > candidates[at]!.logit) candidates[at] = { ...c, action: resolved.action };
      continue;
    }
    seen.set(key, candidates.length);
    candidates.push({ ...c, action: resolved.action });
  }
  return { candidates };
}
