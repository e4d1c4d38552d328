/**
 * A candidate policy proposes the next actions with logits z(s, a). The LLM
 * policy, the built-in offline policy and the benchmark's simulated policy all
 * implement it, so every learner sees the same interface.
 */
import type { LogitSource } from '../episode/episode.ts';
import type { Action } from '../page/action.ts';
import type { PageObservation } from '../page/observation.ts';

/** A section of replayed experience or guidance from another learner. */
export interface PromptSection {
  id: string;
  title: string;
  text: string;
  /**
   * Semantic actions this section recommends (a replayed skill's example
   * actions, already instantiated with the task's values where possible). The
   * LLM reads `text`; the offline policy, which cannot read prose, scores
   * candidates that match these.
   */
  suggestedActions?: string[];
  /**
   * Semantic actions this section advises against (a learned rule:
   * failed attempts did them on this page type, successful ones did not). The
   * offline policy pushes matching candidates down.
   */
  discouragedActions?: string[];
}

export interface StepHistoryItem {
  /** Action in semantic form. */
  action: string;
  /** 'ok' or the error message of the result. */
  outcome: string;
  url: string;
}

export interface PolicyInput {
  task: string;
  observation: PageObservation;
  /** The observation rendered for the prompt (`[12] button "Sign in"` lines). */
  renderedObservation: string;
  history: StepHistoryItem[];
  /** Replayed experience and learner guidance, in prompt order. */
  sections: PromptSection[];
  /** Guidance for the actor from a learner (a meta-prompt, an evolved prompt); absent = none. */
  guide?: string;
  numCandidates: number;
  temperature: number;
}

export interface ProposedCandidate {
  /** In ref form for the current observation. */
  action: Action;
  /** z(s, a): a log-probability, a logit from verbalized confidence, or the offline score. */
  logit: number;
  rationale?: string;
}

export interface PolicyProposal {
  candidates: ProposedCandidate[];
  logitSource: LogitSource;
  usage: { calls: number; promptTokens: number; completionTokens: number };
  /** Non-fatal notes (repaired output, fallback to verbalized, …). */
  notes: string[];
}

export interface CandidatePolicy {
  readonly id: string;
  propose(input: PolicyInput, signal?: AbortSignal): Promise<PolicyProposal>;
}
