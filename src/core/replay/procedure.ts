/**
 * A procedure: a learned sequence of semantic steps for a task template on a
 * site, replayed without a model when it clearly applies (issue 25). It is
 * not a third store: `build-procedures.ts` derives it from a learned skill (the
 * template and its {variables}) and the remembered steps of the verified
 * successes the skill came from (the steps, their page types and order).
 * What replay itself learns (successes, failures in a row, "never replay")
 * is a small status record in the generic learner-data store.
 */
import * as z from 'zod';
import { EpisodeSchema } from '../episode/episode.ts';
import { TargetFingerprintSchema } from '../page/target-fingerprint.ts';

/** The learner-data namespace of replay's status records (not a learner: no registry entry). */
export const REPLAY_DATA_ID = 'replay';

export const ProcedureStepSchema = z.strictObject({
  /** Precondition 1: the page type (regularized URL) the step runs on. */
  regUrl: z.string().min(1),
  /**
   * The action in semantic form, with {variables} where the task's values go:
   * `fill(<searchbox "Search">, "{query}")`. Precondition 2: its target must
   * resolve to exactly one element of the same role and name.
   */
  action: z.string().min(1),
  /**
   * What the step did when it ran in the source success (step-effect.ts): its element's link, form
   * destination, method and data, the task's values as {variables}. A replayed step runs unasked
   * only with this effect. Absent on procedures learned before issue 30 (their steps ask).
   */
  effect: TargetFingerprintSchema.optional(),
});
export type ProcedureStep = z.infer<typeof ProcedureStepSchema>;

export const ProcedureSourceSchema = z.strictObject({
  episodeId: z.string().min(1),
  /** Where the success came from: the agent's own ('live', 'bench'), a demonstration, an import. */
  source: EpisodeSchema.shape.kind,
  /** The person corrected or demonstrated at least one of its steps (a taught attempt). */
  taught: z.boolean(),
  endedAt: z.number().nullable(),
});
export type ProcedureSource = z.infer<typeof ProcedureSourceSchema>;

export const ProcedureSchema = z.strictObject({
  /** The template's id: one procedure per template. */
  id: z.string().min(1),
  origin: z.string().min(1),
  /** The skill's abstract name: `Add {item} to the cart`. */
  template: z.string().min(1),
  /** Variables the steps use (bound from the task's values). */
  variables: z.array(z.string()),
  steps: z.array(ProcedureStepSchema).min(1),
  /** The verified successes it was built from, newest last. */
  sources: z.array(ProcedureSourceSchema).min(1),
  /** The success ended with an answer: the policy gives it after the last step. */
  endsWithAnswer: z.boolean(),
});
export type Procedure = z.infer<typeof ProcedureSchema>;

/** What replay learned about one procedure (learner-data value under REPLAY_DATA_ID, key = procedure id). */
export const ReplayStatusSchema = z.strictObject({
  /** Replays that ended in success. */
  successes: z.number().int().nonnegative(),
  /** Replays that ended in failure, in total and since the last success. */
  failures: z.number().int().nonnegative(),
  failuresInRow: z.number().int().nonnegative(),
  lastFailureAt: z.number().nullable(),
  lastUsedAt: z.number().nullable(),
  /** The person said "never replay". */
  neverReplay: z.boolean(),
  /** The person deleted it: it comes back only from a success newer than this. */
  deletedAt: z.number().nullable(),
});
export type ReplayStatus = z.infer<typeof ReplayStatusSchema>;

export const EMPTY_REPLAY_STATUS: ReplayStatus = {
  successes: 0, failures: 0, failuresInRow: 0, lastFailureAt: null, lastUsedAt: null, neverReplay: false, deletedAt: null,
};

/** Failures in a row after which a procedure stops replaying until a new success. */
export const MAX_FAILURES_IN_ROW = 2;

/** The newest source success's end time (0 when unknown). */
export function newestSuccessAt(procedure: Procedure): number {
  return Math.max(0, ...procedure.sources.map((s) => s.endedAt ?? 0));
}

/**
 * Why a procedure may not replay now, or null. Deleted and blocked
 * procedures come back with a success newer than the deletion or the last
 * failure (a policy-driven success merged into the same skill).
 */
export function replayBlocked(procedure: Procedure, status: ReplayStatus): string | null {
  if (status.neverReplay) return 'the person marked it "never replay"';
  const fresh = newestSuccessAt(procedure);
  if (status.deletedAt !== null && fresh <= status.deletedAt) return 'the person deleted it';
  if (status.failuresInRow >= MAX_FAILURES_IN_ROW && fresh <= (status.lastFailureAt ?? 0)) {
    return `its last ${status.failuresInRow} replays failed; it waits for a new success`;
  }
  return null;
}
