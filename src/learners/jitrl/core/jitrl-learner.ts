/**
 * JitRL as a Learner: `adjust` runs Algorithm 1 steps 1–6 for one decision
 * (retrieve → V, Q → advantages → z' = z + β·Ã); `learn` runs step 7, turning
 * a finished episode into transitions (one per executed step, plus one per
 * rejected proposal) written in one store transaction.
 */
import { carryRows } from './carried-rows.ts';
import type { StepRecord } from '../../../core/episode/episode.ts';
import type { MemoryStore } from './transition.ts';
import { stateTokensOf, taskWords, tokenize } from '../../../core/page/tokenize.ts';
import type { Transition } from './transition.ts';
import type { Clock, RandomSource } from '../../../core/ports.ts';
import { DEFAULT_SETTINGS } from '../../../core/settings.ts';
import type { JitrlSettings } from './settings.ts';
import type { AdjustInput, AdjustOutput, FinishedEpisode, Learner, RequestChange, RequestShape, StepContext } from '../../../core/learning/learner.ts';
import { barredActionsHere, estimateValues } from './estimate-values.ts';
import { withTuned } from './tunables.ts';
import { taughtAction } from './corrections.ts';
import { retrieveNeighbours } from './retrieve-neighbours.ts';
import { staleEvidence } from './stale-evidence.ts';
import { JITRL_ID, type JitrlStepEvidence, type NeighbourSummary } from './evidence.ts';
import { answerSourceIn, type AnswerSource } from '../../../core/page/answer-source.ts';
import { parseAction } from '../../../core/page/action-grammar.ts';
import { FINISH_TEXT } from '../../../core/page/action.ts';

export interface JitrlLearnerOptions {
  store: MemoryStore;
  settings: () => JitrlSettings;
  random: RandomSource;
  clock: Clock;
  /** Reward stored for a rejected proposal (the person's "not this"); defaults to the settings' `reject`. */
  rejectReward?: () => number;
}

export class JitrlLearner implements Learner {
  readonly id = JITRL_ID;
  readonly #options: JitrlLearnerOptions;

  constructor(options: JitrlLearnerOptions) {
    this.#options = options;
  }

  /**
   * Exploration needs candidates to explore. Algorithm 1 re-weights and
   * samples among the actions the policy proposes (plus remembered ones), so
   * once every proposed action is barred in a state (failed or rejected
   * there), sampling can only go round them again: a deterministic policy
   * proposes the same few every attempt. So the request is widened by the
   * number of actions barred in this very state: the pool always holds
   * `numCandidates` actions not yet barred (at most 10 in all: composeRequest), and after each failure blamed
   * here the next attempt reaches one rank further down the policy's list.
   */
  async shapeRequest(context: StepContext, current: Readonly<RequestShape>, signal?: AbortSignal): Promise<RequestChange> {
    const settings = withTuned(this.#options.settings(), current.tuned);
    // Loop bars are the rank stage's rule; our setting switches it off (the ablation's paper-only row).
    const loops: RequestChange = settings.loopBars === false ? { rankingOff: ['bar-loops'] } : {};
    if (!settings.widenPool) return loops;
    const neighbours = await this.#neighbours(context, settings);
    signal?.throwIfAborted();
    const barred = barredActionsHere(neighbours, context.url).length;
    if (barred === 0) return loops;
    // Extras, not a count: the seam adds them to whatever count the learners settle on (composeRequest).
    return { ...loops, extraCandidates: barred };
  }

  #neighbours(ctx: StepContext, settings: JitrlSettings) {
    return retrieveNeighbours(
      this.#options.store,
      {
        origin: ctx.origin,
        regUrl: ctx.regUrl,
        stateTokens: stateTokensOf(ctx.effectiveState, taskWords(ctx.task)),
        taskTokens: tokenize(ctx.task),
        task: ctx.task,
        stepIndex: ctx.stepIndex,
        url: ctx.url,
        observation: ctx.observation,
      },
      settings,
    );
  }

  async adjust(input: AdjustInput, signal?: AbortSignal): Promise<AdjustOutput> {
    signal?.throwIfAborted();
    const settings = withTuned(this.#options.settings(), input.request?.tuned);
    const ctx = input.context;
    const carried = carryRows(await this.#neighbours(ctx, settings), ctx.task, ctx.observation);
    const neighbours = carried.neighbours;
    signal?.throwIfAborted();
    const values = estimateValues({
      candidates: input.candidates,
      neighbours,
      otherInstance: carried.otherInstance,
      resolve: input.resolve,
      ...(input.skip ? { skip: input.skip } : {}),
      settings,
      random: this.#options.random,
      url: ctx.url,
    });
    const summaries: NeighbourSummary[] = neighbours.map((n) => ({
      transitionId: n.transition.id,
      episodeId: n.transition.episodeId,
      task: n.transition.task,
      action: n.transition.action,
      similarity: n.similarity,
      ret: n.ret,
    }));
    const notes = [...carried.notes, ...values.notes];
    if (values.droppedTransitionIds.length > 0) {
      // Stale memory: only a miss that shows the site changed demotes (`stale-evidence.ts`);
      // counted on the rows and shown, never dropped silently.
      const stale = staleEvidence({ neighbours, droppedIds: values.droppedTransitionIds, url: ctx.url, observation: ctx.observation });
      if (stale.length > 0) await this.#options.store.markStale(stale, this.#options.clock.now());
      const at = notes.findIndex((n) => n.endsWith('no longer on this page, dropped'));
      const note = stale.length > 0
        ? `${values.droppedMemoryActions} remembered action(s) not on this page: ${stale.length} transition${stale.length === 1 ? '' : 's'} marked stale (this page shows another control in their place), demoted in retrieval`
        : `${values.droppedMemoryActions} remembered action(s) not on this page (not yet, or another instance): memory kept as it is`;
      if (at >= 0) notes[at] = note;
      else notes.push(note);
    }
    if (neighbours.length === 0) notes.push('no similar experience on this page yet: logits unchanged');
    const evidence: JitrlStepEvidence = { v: values.v, neighbours: summaries, droppedMemoryActions: values.droppedMemoryActions };
    return { candidates: values.candidates, evidence, notes };
  }

  async learn(finished: FinishedEpisode, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    const transitions = buildTransitions(finished, {
      now: this.#options.clock.now(),
      rejectReward: this.#options.rejectReward?.() ?? DEFAULT_SETTINGS.rewards.reject,
    });
    await this.#options.store.putEpisode(finished.episode.id, transitions);
  }
}

/** Where the page showed a step's answer (page/answer-source.ts); null for other steps, "done", or no one place. */
function answerSourceOf(step: StepRecord): AnswerSource | null {
  const parsed = parseAction(step.chosen?.semantic ?? '');
  if (!parsed.ok || parsed.action.type !== 'send_msg_to_user' || parsed.action.text === FINISH_TEXT) return null;
  // Read from the whole page when the answer was given; older records only have the digest.
  if (step.answerFrom !== undefined) return step.answerFrom;
  return step.pageDigest === undefined ? null : answerSourceIn(step.pageDigest, parsed.action.text);
}

const isExecuted = (step: StepRecord): boolean => step.chosen !== null && step.chosen.decision !== 'rejected';

function originOf(url: string, fallback: string): string {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? fallback : origin;
  } catch {
    return fallback;
  }
}

/**
 * Step 7 of Algorithm 1. futureRewards of an executed step are the rewards of
 * it and every later executed step (G is recomputed from them, Eq. 3). A
 * rejected proposal is a one-step experience: in that state, that action drew
 * the person's `reject`, and nothing followed from it.
 */
export function buildTransitions(finished: FinishedEpisode, options: { now: number; rejectReward: number }): Transition[] {
  const { episode, rewards } = finished;
  const source = finished.rewardSource ?? 'person';
  const taskTokens = tokenize(episode.task);
  const words = taskWords(episode.task);
  const executed = episode.steps.map((step, t) => ({ step, reward: rewards[t] ?? 0 })).filter((x) => isExecuted(x.step));
  const out: Transition[] = [];

  const base = (step: StepRecord) => ({
    origin: originOf(step.url, episode.origin),
    regUrl: step.regUrl,
    url: step.url,
    effectiveState: [...step.effectiveState],
    stateTokens: stateTokensOf(step.effectiveState, words),
    task: episode.task,
    taskTokens,
    episodeId: episode.id,
    stepIndex: step.index,
    createdAt: step.startedAt,
    updatedAt: options.now,
  });

  executed.forEach(({ step, reward }, i) => {
    const taught = taughtAction(step);
    const answerFrom = answerSourceOf(step);
    out.push({
      ...base(step),
      id: `${episode.id}:${step.index}`,
      action: step.chosen!.semantic,
      reward,
      rewardSource: source,
      futureRewards: executed.slice(i).map((x) => x.reward),
      ...(taught ? { taught } : {}),
      ...(answerFrom ? { answerFrom } : {}),
    });
  });

  for (const step of episode.steps) {
    const rejected = [...step.rejected];
    if (step.chosen !== null && step.chosen.decision === 'rejected') rejected.push(step.chosen.semantic);
    [...new Set(rejected)].forEach((semantic, j) => {
      out.push({
        ...base(step),
        id: `${episode.id}:${step.index}:rejected:${j}`,
        action: semantic,
        reward: options.rejectReward,
        rewardSource: 'person',
        futureRewards: [options.rejectReward],
        taught: 'rejected',
      });
    });
  }
  return out;
}
