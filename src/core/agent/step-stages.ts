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
import type { CandidatePolicy, PolicyProposal, ProposedCandidate, StepHistoryItem } from '../policy/policy.ts';
import { composeRequest, type Learner, type LearnerRequestChange, type RequestShape, type StepContext } from '../learning/learner.ts';
import type { Action } from '../page/action.ts';
import type { PageObservation } from '../page/observation.ts';
import { formatAction, parseAction } from '../page/action-grammar.ts';
import { resolveSemanticAction, toSemanticAction } from '../page/semantic-action.ts';
import { renderObservation } from '../page/render-observation.ts';
import { regularizeUrl } from '../page/regularize-url.ts';
import { pageDigest } from '../secrets/page-digest.ts';
import { pageKeyOf } from '../page/page-key.ts';
import { historyDepth } from '../page/history-depth.ts';
import { finishProposal } from './proposal-stage.ts';
import { jitrlDefinition } from '../learning/jitrl/definition.ts';
import { computeEffectiveState } from '../learning/effective-state.ts';
import { describeError } from '../errors.ts';
import type { CandidateRecord, Episode, StepRecord } from '../episode/episode.ts';
import { DecisionError } from './controller-types.ts';
import { chainAdjusted, unadjustedCandidates } from '../learning/unadjusted-candidates.ts';

/** observe: snapshot the page and derive the step context. */
export async function observeStage(page: PageDriver, episode: Episode, settings: Settings, signal: AbortSignal): Promise<StepContext> {
  const observation = await page.observe({ maxChars: settings.agent.observationChars, lastActedRef: lastActedRef(episode.steps.at(-1)) }, signal);
  const { origin, regUrl } = regularizeUrl(observation.url);
  const effectiveState = computeEffectiveState(
    episode.steps.filter((s) => s.chosen).map((s) => ({ regUrl: s.regUrl, semantic: s.chosen!.semantic, ok: s.result?.ok === true && !(s.result.ok && s.result.navigated) })),
    regUrl,
    observation,
  );
  // A re-proposal after rejections replaces the pending step and keeps its index: steps are 0..n−1.
  const previous = episode.steps.at(-1);
  const stepIndex = previous !== undefined && previous.chosen === null ? previous.index : episode.steps.length;
  return { episodeId: episode.id, stepIndex, task: episode.task, origin, url: observation.url, regUrl, observation, effectiveState };
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
  const base: RequestShape = { guide: null, sections: [], temperature: input.settings.policy.temperature, numCandidates: input.settings.policy.numCandidates, valueUpdate: {} };
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
 * refuses it too; not proposing it keeps it out of memory and sampling.
 */
export function unavailableActions(episode: Episode, currentUrl?: string): Set<string> {
  return historyDepth(episode.steps, currentUrl) === 0 ? new Set([formatAction({ type: 'go_back' })]) : new Set();
}

/** validate: drops candidates that do not fit the page, were rejected or are unavailable; duplicates keep their best logit. */
export function validateStage(proposal: PolicyProposal, observation: PageObservation, exclude: ReadonlySet<string>, notes: string[], unavailable: ReadonlySet<string> = new Set()): ProposedCandidate[] {
  const seen = new Map<string, number>();
  const candidates: ProposedCandidate[] = [];
  for (const c of proposal.candidates) {
    const resolved = resolveSemanticAction(c.action, observation);
    if (!resolved.ok) {
      notes.push(`dropped ${formatAction(c.action)}: ${resolved.message}`);
      continue;
    }
    const key = formatAction(toSemanticAction(resolved.action, observation));
    if (exclude.has(key)) continue;
    if (unavailable.has(key)) {
      notes.push(`dropped ${key}: the task's first page has nothing of the task to go back to`);
      continue;
    }
    const at = seen.get(key);
    if (at !== undefined) {
      if (c.logit > candidates[at]!.logit) candidates[at] = { ...c, action: resolved.action };
      continue;
    }
    seen.set(key, candidates.length);
    candidates.push({ ...c, action: resolved.action });
  }
  if (candidates.length === 0 && unavailable.size > 0) {
    // Nothing else was proposed: show it rather than pause; the tab driver still refuses it,
    // and the person can edit the step.
    const kept = validateStage(proposal, observation, exclude, [], new Set());
    if (kept.length > 0) {
      notes.push('only an unavailable action was proposed: shown, but it will be refused; edit the step');
      return kept;
    }
  }
  if (candidates.length === 0) throw new DecisionError('The policy proposed no action that fits this page. Edit an action, or stop.');
  return candidates;
}

export interface AdjustedStep {
  records: CandidateRecord[];
  /** Ref-form actions, parallel to `records`. */
  actions: Action[];
  evidence: Record<string, unknown>;
  v: number | null;
  neighbours: StepRecord['neighbours'];
  droppedMemoryActions: number;
}

/** adjust: each adjusting learner in registry order takes the previous one's candidates; a failure leaves them as they were. */
export async function adjustStage(input: {
  learners: Learner[];
  context: StepContext;
  episode: Episode;
  candidates: ProposedCandidate[];
  exclude: ReadonlySet<string>;
  notes: string[];
  signal: AbortSignal;
  request?: RequestShape;
  /** `unavailableActions` of the episode. */
  unavailable?: ReadonlySet<string>;
}): Promise<AdjustedStep> {
  const { observation } = input.context;
  const toSemantic = (action: Action) => formatAction(toSemanticAction(action, observation));
  const resolve = (semantic: string): Action | null => {
    const parsed = parseAction(semantic);
    if (!parsed.ok) return null;
    const resolved = resolveSemanticAction(parsed.action, observation);
    if (!resolved.ok) return null;
    return input.exclude.has(toSemantic(resolved.action)) ? null : resolved.action;
  };
  const skip = (semantic: string): boolean => input.exclude.has(semantic) || (input.unavailable?.has(semantic) ?? false);
  const base = unadjustedCandidates(input.candidates, toSemantic);
  const out: AdjustedStep = { records: base.records, actions: base.actions, evidence: {}, v: null, neighbours: [], droppedMemoryActions: 0 };
  let adjusted = false;
  for (const learner of input.learners) {
    if (!learner.adjust) continue;
    const candidates: ProposedCandidate[] = adjusted
      ? out.records.map((r, i) => ({ action: out.actions[i]!, logit: r.adjustedLogit, ...(r.rationale !== undefined ? { rationale: r.rationale } : {}) }))
      : input.candidates;
    try {
      const result = await learner.adjust({ context: contextFor(learner, input.context, input.episode), candidates, resolve, toSemantic, skip, ...(input.request ? { request: input.request } : {}) }, input.signal);
      out.records = adjusted ? chainAdjusted(out.records, result.candidates) : result.candidates;
      out.actions = result.actions;
      if (result.evidence !== undefined) out.evidence[learner.id] = result.evidence;
      if (result.v !== undefined) out.v = result.v;
      if (result.neighbours !== undefined) out.neighbours = result.neighbours;
      if (result.droppedMemoryActions !== undefined) out.droppedMemoryActions = result.droppedMemoryActions;
      input.notes.push(...result.notes);
      adjusted = true;
    } catch (err) {
      input.notes.push(`${learner.id}: logits left unadjusted (${describeError(err)})`);
    }
  }
  return out;
}

/**
 * rank: loops noticed (the actions that led round one barred), the proposal
 * chosen — sampled from Softmax(z′/T), argmax, or exploited from memory
 * (`proposal-stage.ts`) — and put first, the rest by rank; actions in ref form.
 */
export function rankStage(input: {
  adjusted: AdjustedStep;
  episode: Episode;
  context: StepContext;
  settings: Settings;
  exclude: ReadonlySet<string>;
  notes: string[];
}): Pick<StepRecord, 'candidates' | 'pageKey' | 'selection' | 'loop'> {
  const { episode, context, settings } = input;
  const pageKey = pageKeyOf(context.observation);
  const finished = finishProposal({
    records: input.adjusted.records,
    actions: input.adjusted.actions,
    earlier: episode.steps.filter((s) => s.index < context.stepIndex),
    pageKey,
    url: context.url,
    selection: { mode: settings.agent.selection, temperature: settings.agent.samplingTemperature },
    // Not the origin: its port changes from run to run where sites are served
    // locally (the benchmark), and the same seed must give the same draws.
    drawKey: drawKeyOf(settings.agent.seed, episode, context.stepIndex, input.exclude.size),
    loopBars: jitrlDefinition.settings.read(settings).loopBars,
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
  ranked: Pick<StepRecord, 'candidates' | 'pageKey' | 'selection' | 'loop'>;
  exclude: ReadonlySet<string>;
  notes: string[];
  started: number;
  now: number;
}): StepRecord {
  const { context, proposal, adjusted } = input;
  const title = context.observation.title.trim();
  return {
    index: context.stepIndex,
    url: context.url,
    regUrl: context.regUrl,
    ...(title ? { pageTitle: title } : {}),
    pageDigest: pageDigest(context.observation),
    effectiveState: context.effectiveState,
    ...(input.ranked.pageKey !== undefined ? { pageKey: input.ranked.pageKey } : {}),
    logitSource: proposal.logitSource,
    candidates: input.ranked.candidates,
    ...(input.ranked.selection ? { selection: input.ranked.selection } : {}),
    ...(input.ranked.loop ? { loop: input.ranked.loop } : {}),
    v: adjusted.v,
    neighbours: adjusted.neighbours,
    droppedMemoryActions: adjusted.droppedMemoryActions,
    replayed: input.shape.sections.map((s) => s.id),
    learningNotes: input.notes,
    ...(Object.keys(adjusted.evidence).length > 0 ? { evidence: adjusted.evidence } : {}),
    chosen: null,
    rejected: [...input.exclude],
    result: null,
    reward: null,
    decisionLatencyMs: input.now - input.started,
    modelCalls: proposal.usage.calls,
    promptTokens: proposal.usage.promptTokens,
    completionTokens: proposal.usage.completionTokens,
    startedAt: input.started,
  };
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
