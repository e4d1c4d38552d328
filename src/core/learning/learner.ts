/**
 * The learner contract: one interface for every learner of the registry
 * (src/learners/<id>/). Every hook is optional; the agent controller calls them
 * in registry order at fixed points of an episode:
 *
 *   beginEpisode  once, when an episode starts: pick a plan (an evolved
 *                 configuration node). The plan is checkpointed on the
 *                 episode record (`episode.plans[learnerId]`), so a worker
 *                 restart resumes with the same plan.
 *   shapeRequest  before the policy proposes: change the request (replace or
 *                 append to the guide — a meta-prompt; add prompt sections
 *                 — replayed experience, a library; set temperature and the
 *                 number of candidates — a group size, evolved genes).
 *                 Changes compose as `composeRequest` says (max for
 *                 counts and temperature, guides as ordered parts).
 *   adjust        after the policy proposes: `Candidate`s in, `Candidate`s
 *                 out (candidate.ts; e.g. z' = z + β·Ã). Chained: each
 *                 adjuster receives the previous one's output; evidence about
 *                 one candidate goes on it, under the learner's id. What a learner shows for its decision
 *                 is its `evidence`, stored on the step under its id
 *                 (`step.evidence[learnerId]`) and validated by the schema in
 *                 its registry entry.
 *   learn         after the verdict: learn from the trajectory (live episode,
 *                 demonstration or import — one shape, `Trajectory`).
 *
 * Learning is best-effort: the controller catches a learner's failure,
 * records it in the step's notes, and goes on.
 */
import type { Episode } from '../episode/episode.ts';
import type { Trajectory } from '../episode/trajectory.ts';
import type { PageObservation } from '../page/observation.ts';
import type { PromptSection } from '../policy/policy.ts';
import type { Candidate, PageAction } from './candidate.ts';
import type { RankingRule } from '../ranking-rules.ts';

/** What a learner knows when an episode starts. */
export interface EpisodeStartContext {
  episodeId: string;
  task: string;
  origin: string;
  startUrl: string;
  /** 1-based attempt number of this task on this origin. */
  attempt: number;
  kind: Episode['kind'];
}

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
  /** What the page shows open (dialogs, expanded controls: `pageMarks`); the effective state holds those the episode opened. */
  pageMarks?: string[];
  /** This learner's plan for the episode (what its beginEpisode returned), if any. */
  plan?: unknown;
}

/** The policy request as the learners shape it, before the policy proposes. */
export interface RequestShape {
  /** Guidance for the actor (a meta-prompt, an evolved prompt); null = none. */
  guide: string | null;
  /** Replayed experience and learner guidance, in prompt order. */
  sections: PromptSection[];
  temperature: number;
  numCandidates: number;
  /**
   * Values a learner set for this step on tunables other learners declare
   * (tunables.ts), by tunable key; each learner reads its own keys. Empty = the settings'.
   */
  tuned: Readonly<Record<string, number>>;
  /** The rank stage's rules switched off at this step (ranking-rules.ts); absent = all on. */
  rankingOff?: readonly RankingRule[];
}

/** A learner's change to the request; absent fields are left as they are. */
export interface RequestChange {
  guide?: { mode: 'replace' | 'append'; text: string };
  sections?: PromptSection[];
  temperature?: number;
  numCandidates?: number;
  /**
   * Candidates to ask for on top of the composed count: the actions this
   * learner will bar at this step, so the pool still holds as many
   * open candidates as the count says, whoever set the count.
   */
  extraCandidates?: number;
  /** Values for declared tunables (by key), for this step. */
  tuned?: Readonly<Record<string, number>>;
  /** Rules of the rank stage to switch off at this step (ranking-rules.ts: the agent's, by name). */
  rankingOff?: readonly RankingRule[];
}

/**
 * Resolves a remembered semantic action onto the current page: the action in
 * ref form with its semantic form and target (computed once, by the seam), or
 * null when it does not fit the page or was rejected at this step.
 */
export type ResolveAction = (semantic: string) => PageAction | null;

export interface AdjustInput {
  context: StepContext;
  /**
   * The candidates as the previous adjuster left them (as proposed when this
   * learner adjusts first): `adjustedLogit` is the current z, `baseLogit`
   * the policy's.
   */
  candidates: readonly Candidate[];
  resolve: ResolveAction;
  /**
   * Remembered actions not offered at this step (rejected just now, or
   * `go_back` on the task's first page): skipped before resolving, so they
   * are neither candidates nor counted as stale memory.
   */
  skip?: (semantic: string) => boolean;
  /** The request as the learners shaped it for this step (a learner reads its tunables in `tuned`). */
  request?: Readonly<RequestShape>;
}

export interface AdjustOutput {
  /**
   * All candidates, those received (logits moved or not) and any the learner
   * added (origin 'memory'), each with the learner's own evidence under its
   * id (`withEvidence`). The seam takes the probabilities again over the set.
   */
  candidates: Candidate[];
  /** What the panel shows for this learner's decision; stored under `step.evidence[learnerId]`. */
  evidence?: unknown;
  notes: string[];
}

/** What a trajectory taught (core/episode/trajectory.ts): the one shape every learner learns from. */
export type { FinishedEpisode, Trajectory } from '../episode/trajectory.ts';

/** Optional answer of `learn`: non-fatal problems for the log and the panel (learning is best-effort). */
export interface LearnReport {
  notes: string[];
  /** How many items of its memory this learning added or changed (an import reports the sum). */
  learned?: number;
}

export interface Learner {
  readonly id: string;
  /** When an episode starts: the plan to follow (JSON, checkpointed on the episode). Undefined = no plan. */
  beginEpisode?(start: EpisodeStartContext, signal?: AbortSignal): Promise<unknown>;
  /** Before the policy proposes: change the request (guide, sections, temperature, number of candidates). */
  shapeRequest?(context: StepContext, current: Readonly<RequestShape>, signal?: AbortSignal): Promise<RequestChange>;
  /** After the policy proposes: adjust the candidates. Chained in registry order. */
  adjust?(input: AdjustInput, signal?: AbortSignal): Promise<AdjustOutput>;
  /** The episode's step limit this learner's plan sets (an evolved gene), or undefined for the settings' limit. */
  stepLimit?(plan: unknown): number | undefined;
  /** After the episode: store or distil experience. May report what it did and what failed, instead of throwing. */
  learn?(trajectory: Trajectory, signal?: AbortSignal): Promise<void | LearnReport>;
}

/** One learner's change, with the learner that asked for it. */
export interface LearnerRequestChange {
  learnerId: string;
  change: RequestChange;
}

/**
 * How the learners' changes compose (order-independent except where said):
 *  - numCandidates: the largest any learner asks for (the settings' when none
 *    asks), plus the largest `extraCandidates` any learner asks for on top,
 *    at most MAX_COMPOSED_CANDIDATES. A learner that bars actions (one
 *    after a failure) asks for extras, not a count, so its wider pool is kept
 *    whatever count another learner sets (an evolved gene): 4 + 2 barred = 6.
 *    Extras take the largest, not the sum: two learners widening for the
 *    same barred actions must not count them twice.
 *  - temperature: the highest any learner asks for; the settings' when none
 *    asks. A learner raises it to sample diverse rollouts (GRPO's group,
 *    an evolved gene); a cooler request from another learner must not silence
 *    that exploration, and no learner here needs a cooler actor to be correct.
 *  - guide: one ordered section per learner, in registry order, after the
 *    base guide. `replace` replaces the base guide and the learner's own
 *    earlier text (a meta-prompt ρ_{k+1} replaces ρ_k), never another learner's.
 *  - sections: appended in registry order.
 *  - tuned: merged key by key; a later learner's value wins.
 *  - rankingOff: the union (a rule one learner switches off for measuring
 *    without it must not be switched on by another learner).
 */
/** The most candidates a composed request asks the policy for. */
export const MAX_COMPOSED_CANDIDATES = 10;

export function composeRequest(base: RequestShape, changes: readonly LearnerRequestChange[]): RequestShape {
  const guides: { learnerId: string; text: string }[] = [];
  let baseGuide = base.guide;
  let temperature: number | undefined;
  let numCandidates: number | undefined;
  let extraCandidates = 0;
  let sections = base.sections;
  let tuned = base.tuned;
  const rankingOff = new Set<RankingRule>(base.rankingOff ?? []);
  for (const { learnerId, change } of changes) {
    if (change.guide) {
      const own = guides.findIndex((g) => g.learnerId === learnerId);
      if (change.guide.mode === 'replace') {
        baseGuide = null;
        if (own >= 0) guides[own] = { learnerId, text: change.guide.text };
        else guides.push({ learnerId, text: change.guide.text });
      } else if (own >= 0) {
        guides[own] = { learnerId, text: `${guides[own]!.text}\n\n${change.guide.text}` };
      } else {
        guides.push({ learnerId, text: change.guide.text });
      }
    }
    if (change.temperature !== undefined) temperature = Math.max(temperature ?? Number.NEGATIVE_INFINITY, change.temperature);
    if (change.numCandidates !== undefined) numCandidates = Math.max(numCandidates ?? 0, change.numCandidates);
    if (change.extraCandidates !== undefined) extraCandidates = Math.max(extraCandidates, change.extraCandidates);
    if (change.sections) sections = [...sections, ...change.sections];
    if (change.tuned) tuned = { ...tuned, ...change.tuned };
    for (const rule of change.rankingOff ?? []) rankingOff.add(rule);
  }
  const parts = [...(baseGuide === null ? [] : [baseGuide]), ...guides.map((g) => g.text)];
  return {
    guide: parts.length === 0 ? null : parts.join('\n\n'),
    sections,
    temperature: temperature ?? base.temperature,
    numCandidates: Math.min(MAX_COMPOSED_CANDIDATES, (numCandidates ?? base.numCandidates) + extraCandidates),
    tuned,
    ...(rankingOff.size > 0 ? { rankingOff: [...rankingOff] } : {}),
  };
}
