/**
 * The one builder of a proposed step's record (issue 32: it was built twice,
 * by the agent's record stage and by the replay): what the page showed, the
 * candidates and what they cost, with nothing decided yet (`chosen`,
 * `result` and `reward` null). Keys in one order, whoever builds it.
 */
import type { PageObservation } from '../page/observation.ts';
import { pageDigest } from '../secrets/page-digest.ts';
import type { StepRecord } from './episode.ts';

/** Where the step was: the page as observed, and what the agent made of it. */
export interface StepPage {
  stepIndex: number;
  url: string;
  regUrl: string;
  observation: PageObservation;
  effectiveState: string[];
  /** What the page showed open (`pageMarks`). */
  pageMarks?: string[] | undefined;
}

/** What was proposed on that page, and what it cost. */
export interface StepProposalParts {
  pageKey?: string | undefined;
  logitSource: StepRecord['logitSource'];
  candidates: StepRecord['candidates'];
  selection?: StepRecord['selection'];
  loop?: StepRecord['loop'];
  /** Ids of the prompt sections learners added. */
  replayed: string[];
  learningNotes: string[];
  /** Learners' evidence by id; left out of the record when empty. */
  evidence?: StepRecord['evidence'];
  rejected: string[];
  usage: { calls: number; promptTokens: number; completionTokens: number };
  replayStep?: StepRecord['replayStep'];
}

export function proposedStep(page: StepPage, parts: StepProposalParts, time: { started: number; now: number }): StepRecord {
  const title = page.observation.title.trim();
  return {
    index: page.stepIndex,
    url: page.url,
    regUrl: page.regUrl,
    ...(title ? { pageTitle: title } : {}),
    pageDigest: pageDigest(page.observation),
    effectiveState: page.effectiveState,
    ...(page.pageMarks !== undefined ? { pageMarks: page.pageMarks } : {}),
    ...(parts.pageKey !== undefined ? { pageKey: parts.pageKey } : {}),
    logitSource: parts.logitSource,
    candidates: parts.candidates,
    ...(parts.selection ? { selection: parts.selection } : {}),
    ...(parts.loop ? { loop: parts.loop } : {}),
    replayed: parts.replayed,
    learningNotes: parts.learningNotes,
    ...(parts.evidence !== undefined && Object.keys(parts.evidence).length > 0 ? { evidence: parts.evidence } : {}),
    chosen: null,
    rejected: parts.rejected,
    result: null,
    reward: null,
    decisionLatencyMs: time.now - time.started,
    modelCalls: parts.usage.calls,
    promptTokens: parts.usage.promptTokens,
    completionTokens: parts.usage.completionTokens,
    startedAt: time.started,
    ...(parts.replayStep ? { replayStep: parts.replayStep } : {}),
  };
}
