/** The agent controller's ports, inputs and errors. */
import type { Clock, Logger, PageDriver } from '../ports.ts';
import type { Settings } from '../settings.ts';
import type { CandidatePolicy } from '../policy/policy.ts';
import type { Learner } from '../learning/learner.ts';
import { FINISHED_STATUSES, type Episode, type Verdict } from '../episode/episode.ts';
import type { EpisodeStore } from '../episode/episode-store.ts';
import type { ReplayPort } from '../replay/replay-port.ts';

// Declared once, with their schemas: person-input.ts and the episode record.
export type { DecisionInput } from './person-input.ts';
export type { Verdict } from '../episode/episode.ts';

/** Scores each executed step −3..+3 after the episode (the evaluator of docs/learning.md, "Papers"). */
export type StepEvaluator = (
  input: { task: string; steps: { action: string; url: string; outcome: string }[]; verdict: Verdict; answer: string | null },
  signal?: AbortSignal,
) => Promise<{ scores: number[]; notes: string[] }>;

export interface AgentDeps {
  episodes: EpisodeStore;
  /** The page the episode runs on (a tab in the extension, a Playwright page in the benchmark). */
  pageFor(episode: Episode): PageDriver;
  policy(): CandidatePolicy;
  /** The learners that run, in registry order (learning/registry/registry.ts). */
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
  /** The built-in policy that needs no model: what the person may ask for one step when the model's answer was unusable. */
  offlinePolicy?(): CandidatePolicy;
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

export const isFinished = (e: Episode): boolean => (FINISHED_STATUSES as readonly string[]).includes(e.status);
