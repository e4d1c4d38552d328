/**
 * One proposal, as named stages:
 *
 *   observe → shape → propose → validate → adjust → rank → record
 *
 * Each stage is a small function of its inputs; the controller runs them in
 * order (proposeStep) and saves the result. Learners enter at `shape`
 * (RequestChange, applied in registry order) and `adjust` (chained in
 * registry order, each one's evidence kept under its id).
 */
import type { PageDriver } from '../ports.ts';
import type { Settings } from '../settings.ts';
import type { CandidatePolicy, PolicyProposal, StepHistoryItem } from '../policy/policy.ts';
import { composeRequest, type Learner, type LearnerRequestChange, type RequestShape, type StepContext } from '../learning/learner.ts';
import type { PageObservation } from '../page/observation.ts';
import { formatAction, parseAction } from '../page/action-grammar.ts';
import { FINISH_ACTION } from '../page/action.ts';
import { resolveSemanticAction } from '../page/semantic-action.ts';
import { renderObservation } from '../page/render-observation.ts';
import { regularizeUrl } from '../page/regularize-url.ts';
import { pageKeyOf } from '../page/page-key.ts';
import { historyDepth } from '../page/history-depth.ts';
import { finishProposal } from './proposal-stage.ts';
import { rankingRuleOn } from '../ranking-rules.ts';
import { computeEffectiveState, stateStepsOf } from './effective-state.ts';
import { pageMarks } from '../page/page-marks.ts';
import { describeError } from '../errors.ts';
import type { Episode, StepRecord } from '../episode/episode.ts';
import { proposedStep } from '../episode/step-record.ts';
import { DecisionError } from './controller-types.ts';
import { nextPlanTarget } from '../replay/replay-proposal.ts';
import { candidateRecord, pageActionOf, proposedCandidates, withProbabilities, type Candidate, type PageAction } from '../learning/candidate.ts';

/** observe: snapshot the page and derive the step context. */
export async function observeStage(page: PageDriver, episode: Episode, settings: Settings, signal: AbortSignal): Promise<StepContext> {
  const waitFor = nextPlanTarget(episode);
  const observation = await page.observe({ maxChars: settings.agent.observationChars, lastActedRef: lastActedRef(episode.steps.at(-1)), task: episode.task, ...(waitFor ? { waitFor } : {}) }, signal);
  const { origin, regUrl } = regularizeUrl(observation.url);
  const marks = pageMarks(observation);
  const effectiveState = computeEffectiveState(
    stateStepsOf(episode.steps),
    regUrl,
    observation,
    marks,
  );
  // A re-proposal after rejections replaces the pending step and keeps its index: steps are 0..n−1.
  const previous = episode.steps.at(-1);
  const stepIndex = previous !== undefined && previous.chosen === null ? previous.index : episode.steps.length;
  return { episodeId: episode.id, stepIndex, task: episode.task, origin, url: observation.url, regUrl, observation, effectiveState, pageMarks: marks };
}

/** The context one learner sees: the step's, with its own plan for the episode. */
export function contextFor(learner: Learner, context: StepContext, episode: Episode): StepContext {
  const plan = episode.plans?.[learner.id];
  return plan === undefined ? context : { ...context, plan };
}

/** shape: the request before any learner (settings), then each learner's change in registry order. */
export async function shapeStage(input: {
  learners: Learner[];
  context: StepContext;
  episode: Episode;
  settings: Settings;
  notes: string[];
  signal: AbortSignal;
}): Promise<RequestShape> {
  const base: RequestShape = { guide: null, sections: [], temperature: input.settings.policy.temperature, numCandidates: input.settings.policy.numCandidates, tuned: {} };
  // Each learner sees the request as composed so far (`composeRequest` says how changes combine).
  const changes: LearnerRequestChange[] = [];
  let shape = base;
  for (const learner of input.learners) {
    if (!learner.shapeRequest) continue;
    // Learning is best-effort: a failing learner is noted, never fatal.
    try {
      changes.push({ learnerId: learner.id, change: await learner.shapeRequest(contextFor(learner, input.context, input.episode), shape, input.signal) });
      shape = composeRequest(base, changes);
    } catch (err) {
      input.notes.push(`${learner.id}: replay skipped (${describeError(err)})`);
    }
  }
  return shape;
}

/** propose: ask the policy, with extra candidates for each rejected action that will be filtered out. */
export function proposeStage(policy: CandidatePolicy, episode: Episode, context: StepContext, shape: RequestShape, exclude: ReadonlySet<string>, signal: AbortSignal): Promise<PolicyProposal> {
  return policy.propose(
    {
      task: episode.task,
      observation: context.observation,
      renderedObservation: renderObservation(context.observation),
      history: historyOf(episode),
      sections: shape.sections,
      ...(shape.guide !== null ? { guide: shape.guide } : {}),
      numCandidates: shape.numCandidates + exclude.size,
      temperature: shape.temperature,
    },
    signal,
  );
}

/**
 * Actions not offered at this step whatever proposes them: `go_back` while the
 * episode has no page of its own to go back to (`historyDepth` 0) would leave
 * the task (about:blank, or the page the person came from). The tab driver
 * refuses it too; not proposing it keeps it out of memory and sampling. And
 * the bare finish before any step ran.
 */
export function unavailableActions(episode: Episode, currentUrl?: string): Set<string> {
  const out = new Set<string>();
  if (historyDepth(episode.steps, currentUrl) === 0) out.add(formatAction({ type: 'go_back' }));
  // "The task is done" before anything ran is not a finish: memory of a page that looks the
  // same after the task as before it (a star's state is not in the snapshot) must not end it.
  // The person can still say done in the panel.
  if (!episode.steps.some((s) => s.chosen && s.result?.ok === true)) out.add(formatAction(FINISH_ACTION));
  return out;
}

interface Proposed {
  page: PageAction;
  logit: number;
  rationale?: string;
}

/**
 * validate: drops candidates that do not fit the page, were rejected or are
 * unavailable; duplicates keep their best logit. Each proposal that fits
 * becomes a Candidate here, its semantic form and target computed once.
 */
export function validateStage(proposal: PolicyProposal, observation: PageObservation, exclude: ReadonlySet<string>, notes: string[], unavailable: ReadonlySet<string> = new Set()): Candidate[] {
  const fitting: Proposed[] = [];
  for (const c of proposal.candidates) {
    const resolved = resolveSemanticAction(c.action, observation);
    if (!resolved.ok) {
      notes.push(`dropped ${formatAction(c.action)}: ${resolved.message}`);
      continue;
    }
    const page = pageActionOf(resolved.action, observation);
    if (!exclude.has(page.semantic)) fitting.push({ page, logit: c.logit, ...(c.rationale !== undefined ? { rationale: c.rationale } : {}) });
  }
  const candidates = distinct(fitting.filter((c) => !unavailable.has(c.page.semantic)));
  for (const c of fitting) {
    if (!unavailable.has(c.page.semantic)) continue;
    const why = c.page.action.type === 'go_back' ? "the task's first page has nothing of the task to go back to" : 'nothing of the task has run yet';
    notes.push(`dropped ${c.page.semantic}: ${why}`);
  }
  if (candidates.length === 0 && fitting.length > 0) {
    // Nothing else was proposed: show it rather than pause; the tab driver still refuses it,
    // and the person can edit the step.
    notes.push('only an unavailable action was proposed: shown, but it will be refused; edit the step');
    return proposedCandidates(distinct(fitting));
  }
  if (candidates.length === 0) throw new DecisionError('The policy proposed no action that fits this page. Edit an action, or stop.');
  return proposedCandidates(candidates);
}

/** One per semantic action, at its first place, with the best logit proposed for it. */
function distinct(proposed: readonly Proposed[]): Proposed[] {
  const at = new Map<string, number>();
  const out: Proposed[] = [];
  for (const c of proposed) {
    const i = at.get(c.page.semantic);
    if (i === undefined) {
      at.set(c.page.semantic, out.length);
      out.push(c);
    } else if (c.logit > out[i]!.logit) {
      out[i] = c;
    }
  }
  return out;
}

export interface AdjustedStep {
  /** The candidates after every adjuster, model and memory ones, with base and adjusted logits. */
  candidates: Candidate[];
  /** Each adjusting learner's evidence for the step, by learner id. */
  evidence: Record<string, unknown>;
}

/** adjust: each adjusting learner in registry order takes the previous one's candidates; a failure leaves them as they were. */
export async function adjustStage(input: {
  learners: Learner[];
  context: StepContext;
  episode: Episode;
  candidates: readonly Candidate[];
  exclude: ReadonlySet<string>;
  notes: string[];
  signal: AbortSignal;
  request?: RequestShape;
  /** `unavailableActions` of the episode. */
  unavailable?: ReadonlySet<string>;
}): Promise<AdjustedStep> {
  const { observation } = input.context;
  // Memory keeps actions in semantic form (stored text): parsed here, at that boundary.
  const resolve = (semantic: string): PageAction | null => {
    const parsed = parseAction(semantic);
    if (!parsed.ok) return null;
    const resolved = resolveSemanticAction(parsed.action, observation, { remembered: true });
    if (!resolved.ok) return null;
    const page = pageActionOf(resolved.action, observation);
    return input.exclude.has(page.semantic) ? null : page;
  };
  const skip = (semantic: string): boolean => input.exclude.has(semantic) || (input.unavailable?.has(semantic) ?? false);
  const out: AdjustedStep = { candidates: [...input.candidates], evidence: {} };
  for (const learner of input.learners) {
    if (!learner.adjust) continue;
    try {
      const result = await learner.adjust({ context: contextFor(learner, input.context, input.episode), candidates: out.candidates, resolve, skip, ...(input.request ? { request: input.request } : {}) }, input.signal);
      // Probabilities are the seam's: taken again over the set the learner returned.
      out.candidates = withProbabilities(result.candidates);
      if (result.evidence !== undefined) out.evidence[learner.id] = result.evidence;
      input.notes.push(...result.notes);
    } catch (err) {
      input.notes.push(`${learner.id}: logits left unadjusted (${describeError(err)})`);
    }
  }
  return out;
}

/** The candidates in proposal order (the proposal first), and how it was chosen. */
export interface RankedStep extends Pick<StepRecord, 'pageKey' | 'selection' | 'loop'> {
  candidates: Candidate[];
}

/**
 * rank: loops noticed (the actions that led round one barred), the proposal
 * chosen — sampled from Softmax(z′/T), argmax, or exploited from memory
 * (`proposal-stage.ts`) — and put first, the rest by rank.
 */
export function rankStage(input: {
  adjusted: AdjustedStep;
  episode: Episode;
  context: StepContext;
  settings: Settings;
  exclude: ReadonlySet<string>;
  notes: string[];
  /** The request as the learners shaped it: the rank stage's rules switched off here. */
  request?: Pick<RequestShape, 'rankingOff'>;
}): RankedStep {
  const { episode, context, settings } = input;
  const pageKey = pageKeyOf(context.observation);
  const finished = finishProposal({
    candidates: input.adjusted.candidates,
    earlier: episode.steps.filter((s) => s.index < context.stepIndex),
    pageKey,
    url: context.url,
    selection: { mode: settings.agent.selection, temperature: settings.agent.samplingTemperature },
    // Not the origin: its port changes from run to run where sites are served
    // locally (the benchmark), and the same seed must give the same draws.
    drawKey: drawKeyOf(settings.agent.seed, episode, context.stepIndex, input.exclude.size),
    barLoops: rankingRuleOn('bar-loops', input.request),
  });
  input.notes.push(...finished.notes);
  return { candidates: finished.candidates, pageKey, selection: finished.selection, ...(finished.loop ? { loop: finished.loop } : {}) };
}

/** What a step's draw is seeded with: the settings' seed, the task, the attempt, the step and the rejections so far. */
export function drawKeyOf(seed: number, episode: Pick<Episode, 'task' | 'attempt'>, stepIndex: number, rejections: number): string {
  return `${seed}:${episode.task}:${episode.attempt}:${stepIndex}:${rejections}`;
}

/** record: the step as stored, with what the page showed. */
export function recordStage(input: {
  context: StepContext;
  proposal: PolicyProposal;
  shape: RequestShape;
  adjusted: AdjustedStep;
  ranked: RankedStep;
  exclude: ReadonlySet<string>;
  notes: string[];
  started: number;
  now: number;
}): StepRecord {
  const { context, proposal } = input;
  return proposedStep(context, {
    pageKey: input.ranked.pageKey,
    logitSource: proposal.logitSource,
    // Formatted here, for storage and display.
    candidates: input.ranked.candidates.map(candidateRecord),
    selection: input.ranked.selection,
    loop: input.ranked.loop,
    replayed: input.shape.sections.map((s) => s.id),
    learningNotes: input.notes,
    evidence: input.adjusted.evidence,
    rejected: [...input.exclude],
    usage: proposal.usage,
  }, { started: input.started, now: input.now });
}

function lastActedRef(step: StepRecord | undefined): string | null {
  if (!step?.chosen) return null;
  const m = /\[([^\]]+)\]/.exec(step.chosen.action);
  return m?.[1] ?? null;
}

export function historyOf(episode: Episode): StepHistoryItem[] {
  return episode.steps
    .filter((s) => s.chosen)
    .map((s) => ({ action: s.chosen!.semantic, outcome: s.result ? (s.result.ok ? 'ok' : `${s.result.code}: ${s.result.message}`) : 'not run', url: s.url }));
}
