/** The agent controller's ports, inputs and errors. */
import type { Clock, Logger, PageDriver } from '../ports.ts';
import type { Settings } from '../settings.ts';
import type { CandidatePolicy } from '../policy/policy.ts';
import type { Learner } from '../learning/learner.ts';
import type { Episode } from '../episode/episode.ts';
import type { EpisodeStore } from '../episode/episode-store.ts';
import type { ReplayPort } from '../replay/replay-port.ts';

/**
 * `step` and `candidate` name what the decision answers (the UI always sends
 * them; a mismatch is refused). The core's own callers — auto-approve, the
 * benchmark's decider — may omit them.
 */
type Named = { step?: number | undefined; candidate?: string | undefined };
export type DecisionInput =
  | ({ kind: 'approve' } & Named)
  | ({ kind: 'pick'; index: number } & Named)
  | { kind: 'edit'; action: string; step?: number | undefined }
  | ({ kind: 'reject'; index?: number | undefined } & Named)
  /**
   * Show me: the person did the step in the page while it was recorded. It
   * already ran; `action` is its semantic form, `url` the page it was done
   * on, `navigated` whether the page then moved on.
   */
  | { kind: 'show'; action: string; url: string; title: string; navigated?: boolean };

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
  /** The learners that run, in registry order (learning/registry.ts). */
  learners(): Learner[];
  evaluator(): StepEvaluator | null;
  settings(): Settings;
  clock: Clock;
  logger: Logger;
  newId(): string;
  /** Called after every saved change (the UI broadcast). */
  onUpdate?(episode: Episode): void;
  /** Before each proposal: a reason to pause (the site's token budget is spent), or null. */
  tokenBudget?(episode: Episode): Promise<string | null>;
  /** Learned procedures (src/core/replay); absent = never replay. */
  replay?: ReplayPort;
}

/** The person's answer to an offered plan: approve it once (optionally with edited values), or decline it. */
export type PlanDecision = { kind: 'approve'; values?: Record<string, string> | undefined } | { kind: 'decline' };

/** A decision that cannot be carried out (unparseable edit, wrong state…): nothing changed. */
export class DecisionError extends Error {
  override name = 'DecisionError';
}

export class EpisodeNotFoundError extends Error {
  override name = 'EpisodeNotFoundError';
}

export const isFinished = (e: Episode): boolean => ['success', 'failure', 'partial', 'stopped', 'error'].includes(e.status);
