/**
 * One interface for every learner (JitRL, CER, and later EvoTest,
 * Training-Free GRPO, Meta-TTL). A learner may shape the prompt before the
 * policy proposes, adjust the candidates' logits after, and learn from a
 * finished episode. Learning is best-effort: the agent loop catches a
 * learner's failure, records it in the step's notes, and goes on.
 */
import type { CandidateRecord, Episode, NeighbourSummary } from '../agent/episode.ts';
import type { RewardSource } from '../memory/transition.ts';
import type { Action } from '../page/action.ts';
import type { PageObservation } from '../page/observation.ts';
import type { PromptSection, ProposedCandidate } from '../policy/policy.ts';

export interface StepContext {
  episodeId: string;
  stepIndex: number;
  task: string;
  origin: string;
  url: string;
  regUrl: string;
  observation: PageObservation;
  /** Semantic actions earlier on this page whose effects are still visible. */
  effectiveState: string[];
}

/** Resolves a semantic action from memory onto the current page (ref form), or null. */
export type ResolveAction = (semantic: string) => Action | null;
/** Formats a ref-form action in semantic form for the current page. */
export type ToSemantic = (action: Action) => string;

export interface AdjustInput {
  context: StepContext;
  candidates: ProposedCandidate[];
  resolve: ResolveAction;
  toSemantic: ToSemantic;
}

export interface AdjustOutput {
  /** All candidates, model and memory-only, with base and adjusted logits. */
  candidates: CandidateRecord[];
  /** Ref-form actions, parallel to `candidates`. */
  actions: Action[];
  v: number | null;
  neighbours: NeighbourSummary[];
  droppedMemoryActions: number;
  notes: string[];
}

/** What the episode taught: rewards per step after combining person and evaluator. */
export interface FinishedEpisode {
  episode: Episode;
  /** r_t per step, parallel to episode.steps. */
  rewards: number[];
  /** Where the rewards came from (`assignStepRewards().source`); 'person' when absent. */
  rewardSource?: RewardSource;
}

/** Optional answer of `learn`: non-fatal problems for the log and the panel (learning is best-effort). */
export interface LearnReport {
  notes: string[];
}

export interface Learner {
  readonly id: string;
  /** Before the policy proposes: sections to put in the prompt (CER replay). */
  promptSections?(context: StepContext, signal?: AbortSignal): Promise<PromptSection[]>;
  /** After the policy proposes: adjust the logits (JitRL). At most one learner adjusts. */
  adjust?(input: AdjustInput, signal?: AbortSignal): Promise<AdjustOutput>;
  /** After the episode: store or distil experience. May report what it did and what failed, instead of throwing. */
  learn?(finished: FinishedEpisode, signal?: AbortSignal): Promise<void | LearnReport>;
}
