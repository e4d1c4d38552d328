/**
 * A store kind the composition roots build (learner-stores.ts, `stepRows`):
 * one remembered step per row — the state (page type, effective state, task),
 * the action, its reward and the rewards after it — read by page type and
 * written an episode at a time. A learner that declares such a store gives
 * the rows their meaning. Returns are never stored: `futureRewards` keeps the
 * raw rewards, so a learner's discount can change without a migration.
 * The IndexedDB implementation is in src/adapters/idb; an in-memory one in
 * in-memory-step-rows.ts.
 */
import * as z from 'zod';
import { RewardSourceSchema } from '../episode/reward-source.ts';
import { AnswerSourceSchema } from '../page/answer-source.ts';

export const StepRowSchema = z.strictObject({
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
   * The declaring learner decides what it does with it.
   */
  taught: z.enum(['approved', 'corrected', 'rejected']).optional(),
  /**
   * For an answer: where the page showed it (page/answer-source.ts), so that
   * another instance of the task reads its own answer from the same place.
   * Absent when the page showed it in no one place, and on older rows.
   */
  answerFrom: AnswerSourceSchema.optional(),
});
export type StepRow = z.infer<typeof StepRowSchema>;

/** One site's rows, for the Memory tab's site table. */
export interface StepRowSite {
  origin: string;
  rows: number;
  pages: number;
  lastUpdated: number;
}

export interface StepRowStore {
  /** All rows of one episode in one transaction: all or nothing. Replaces earlier rows of that episode. */
  putEpisode(episodeId: string, rows: StepRow[]): Promise<void>;
  /** Rows on one page type of one site, newest first, at most `limit`. Backed by an index, never a scan. */
  byPage(origin: string, regUrl: string, limit?: number): Promise<StepRow[]>;
  /** Browse a site's rows, newest first; `query` filters by task, URL or action text. */
  bySite(origin: string, options?: { query?: string; limit?: number; offset?: number }): Promise<StepRow[]>;
  sites(): Promise<StepRowSite[]>;
  deleteRows(ids: string[]): Promise<number>;
  /** Counts one miss on each row (`stale` + 1, `staleAt` = at); returns how many exist. */
  markStale(ids: string[], at: number): Promise<number>;
  forgetSite(origin: string): Promise<number>;
  all(): Promise<StepRow[]>;
  count(): Promise<number>;
}
