/**
 * One step of experience, as JitRL's memory M = {(s_i, a_i, G_i)} stores it
 * (§4.1). G is never stored: it is recomputed from `futureRewards` with the
 * current γ (Eq. 3), so changing γ in the settings needs no migration.
 */
import * as z from 'zod';
import { AnswerSourceSchema } from '../page/answer-source.ts';

export const RewardSourceSchema = z.enum([
  'person', // approve / reject / success / failure from the user
  'evaluator', // the model evaluator's per-step score (−3..+3), after the episode
  'combined', // both, combined by the documented rule (see core/credit/rewards.ts)
  'outcome', // the benchmark's or task's own success signal
]);
export type RewardSource = z.infer<typeof RewardSourceSchema>;

export const TransitionSchema = z.strictObject({
  /** `${episodeId}:${stepIndex}` */
  id: z.string(),
  origin: z.string(),
  regUrl: z.string(),
  /** The concrete URL (the instance of the page type); absent in rows written before it was kept. */
  url: z.string().optional(),
  /** The earlier actions on this page whose effects are still visible, in semantic form. */
  effectiveState: z.array(z.string()),
  /** Tokens of the effective state, for Jaccard (Eq. 24). */
  stateTokens: z.array(z.string()),
  task: z.string(),
  taskTokens: z.array(z.string()),
  /** The action in semantic form: `click(<button "Sign in">)`. */
  action: z.string(),
  /** r_t for this step. */
  reward: z.number(),
  rewardSource: RewardSourceSchema,
  /** r_t, r_{t+1}, …, r_T of the episode: G_t is recomputed from these with γ. */
  futureRewards: z.array(z.number()),
  episodeId: z.string(),
  stepIndex: z.number().int().nonnegative(),
  createdAt: z.number(),
  updatedAt: z.number(),
  /**
   * Stale memory: how many times the action failed to resolve on a page of
   * its type (the site changed). Such rows are demoted in retrieval, counted
   * and shown as stale; they are never dropped silently. Absent = never missed.
   */
  stale: z.number().int().positive().optional(),
  /** When it last missed. */
  staleAt: z.number().optional(),
  /**
   * What the person said about this action here, when they said something:
   * approved the proposal, corrected it (picked another candidate, edited,
   * demonstrated), or rejected it. Absent for auto-approved steps and old rows.
   * A correction is proposed first in this state next time; person-taught rows
   * transfer to other instances of the task's template (JitRL's corrections.ts).
   */
  taught: z.enum(['approved', 'corrected', 'rejected']).optional(),
  /**
   * For an answer: where the page showed it (page/answer-source.ts), so that
   * another instance of the task reads its own answer from the same place.
   * Absent when the page showed it in no one place, and on older rows.
   */
  answerFrom: AnswerSourceSchema.optional(),
});
export type Transition = z.infer<typeof TransitionSchema>;

/** A retrieved neighbour with its similarity and return, as the UI shows it. */
export interface Neighbour {
  transition: Transition;
  similarity: number;
  /** G recomputed with the current γ. */
  ret: number;
}
