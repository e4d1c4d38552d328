/**
 * One candidate action at one step, as the seam and the learners see it: the
 * structured action, its semantic form (computed once, when the candidate is
 * made), the element it targets, base and adjusted logits and probabilities,
 * where it came from, the rules that bar or settle it, and each learner's
 * evidence about it under that learner's id.
 *
 * The policy returns raw proposals (action + logit); the proposal stage turns
 * each into a Candidate once. Learners adjust candidates and hand them on;
 * strings are formatted only for storage and display (`candidateRecord`).
 */
import type { Barred, CandidateRecord } from '../episode/episode.ts';
import { formatAction } from '../page/action-grammar.ts';
import type { Action } from '../page/action.ts';
import type { PageObservation } from '../page/observation.ts';
import { toSemanticAction } from '../page/semantic-action.ts';
import { actionFingerprint, type TargetFingerprint } from '../page/target-fingerprint.ts';
import type { ProposedCandidate } from '../policy/policy.ts';
import { softmax } from './shared/softmax.ts';

/** An action on the current page with what the seam derives from it once: its semantic form and its target. */
export interface PageAction {
  /** Ref form for the current observation. */
  readonly action: Action;
  /** The same action in semantic form (`click(<button "Sign in">)`): the key memory and rejections use. */
  readonly semantic: string;
  /** The element the action targets, as the page showed it (what an approval is about). */
  readonly target?: TargetFingerprint;
}

export interface Candidate extends PageAction {
  /** 'model' = proposed by the policy; 'memory' = added by a learner from what it remembered. */
  readonly origin: 'model' | 'memory';
  /** A memory action that resolved loosely: the remembered semantic action (`semantic` is the element it acts on). */
  readonly remembered?: string;
  /** The model's words for it (page text may have shaped them). */
  readonly rationale?: string;
  /** z(s, a) as the policy gave it (or where a memory action entered). */
  readonly baseLogit: number;
  /** z after the adjusters so far; equal to `baseLogit` until one changes it. */
  readonly adjustedLogit: number;
  /** Softmax of the base and the adjusted logits over this step's candidates. */
  readonly baseProb: number;
  readonly adjustedProb: number;
  /** Never proposed while an unbarred candidate exists (`proposal-choice.ts`). */
  readonly barred?: Barred;
  /** Proposed outright, not sampled: memory says it worked in this very state. */
  readonly settled?: boolean;
  /** Each learner's evidence about this candidate, by learner id (validated by its definition's schema where read). */
  readonly evidence: Readonly<Record<string, unknown>>;
}

/** The action as the current page shows it: semantic form and target, computed here and nowhere else. */
export function pageActionOf(action: Action, observation: PageObservation): PageAction {
  const target = actionFingerprint(action, observation);
  return { action, semantic: formatAction(toSemanticAction(action, observation)), ...(target ? { target } : {}) };
}

/** A policy proposal as a candidate (probabilities still to be taken over the step's set: `withProbabilities`). */
export function modelCandidate(page: PageAction, proposal: Pick<ProposedCandidate, 'logit' | 'rationale'>): Candidate {
  return {
    ...page,
    origin: 'model',
    ...(proposal.rationale !== undefined ? { rationale: proposal.rationale } : {}),
    baseLogit: proposal.logit,
    adjustedLogit: proposal.logit,
    baseProb: 0,
    adjustedProb: 0,
    evidence: {},
  };
}

/** A remembered action that resolved on this page, entering at `logit`. `remembered`: the memory's own words when they differ. */
export function memoryCandidate(page: PageAction, logit: number, remembered?: string): Candidate {
  return {
    ...page,
    origin: 'memory',
    ...(remembered !== undefined && remembered !== page.semantic ? { remembered } : {}),
    baseLogit: logit,
    adjustedLogit: logit,
    baseProb: 0,
    adjustedProb: 0,
    evidence: {},
  };
}

/** Base and adjusted probabilities taken again over this set (after candidates joined or logits moved). */
export function withProbabilities(candidates: readonly Candidate[]): Candidate[] {
  const base = softmax(candidates.map((c) => c.baseLogit));
  const adjusted = softmax(candidates.map((c) => c.adjustedLogit));
  return candidates.map((c, i) => ({ ...c, baseProb: base[i]!, adjustedProb: adjusted[i]! }));
}

/** The step's model candidates, adjusted = base, with their probabilities. */
export function proposedCandidates(proposals: readonly { page: PageAction; logit: number; rationale?: string }[]): Candidate[] {
  return withProbabilities(proposals.map((p) => modelCandidate(p.page, p)));
}

/** The candidate with one learner's evidence added under its id. */
export function withEvidence(candidate: Candidate, learnerId: string, evidence: unknown): Candidate {
  return { ...candidate, evidence: { ...candidate.evidence, [learnerId]: evidence } };
}

/** The stored form: the action formatted for storage and display. */
export function candidateRecord(c: Candidate): CandidateRecord {
  return {
    action: formatAction(c.action),
    semantic: c.semantic,
    origin: c.origin,
    ...(c.remembered !== undefined ? { remembered: c.remembered } : {}),
    ...(c.barred !== undefined ? { barred: c.barred } : {}),
    ...(c.settled ? { settled: true } : {}),
    ...(c.rationale !== undefined ? { rationale: c.rationale } : {}),
    ...(c.target !== undefined ? { target: c.target } : {}),
    baseLogit: c.baseLogit,
    adjustedLogit: c.adjustedLogit,
    baseProb: c.baseProb,
    adjustedProb: c.adjustedProb,
    ...(Object.keys(c.evidence).length > 0 ? { evidence: { ...c.evidence } } : {}),
  };
}
