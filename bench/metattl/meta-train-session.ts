/**
 * What one TTL session (Meta-TTL Algorithm 1, RunTTL(φ, g)) yields for the
 * outer loop: per attempt its score, its log and the guide the meta-agent
 * wrote after it; and the session's W-AUC both ways. Stored in the checkpoint.
 */
import * as z from 'zod';
import { weightedAucBothWays } from '../metrics.ts';

export const SessionAttemptSchema = z.strictObject({
  attempt: z.number().int().positive(),
  /** J(τ_k)/J_max in [0, 1]; null when the attempt did not run (the session stopped early). */
  score: z.number().min(0).max(1).nullable(),
  /** The rendered episode log (bounded). */
  log: z.string(),
  /** The guide the meta-agent wrote after this attempt; null when it wrote none (last attempt, or dropped). */
  guideAfter: z.string().nullable(),
  notes: z.array(z.string()),
});
export type SessionAttempt = z.infer<typeof SessionAttemptSchema>;

export const SessionResultSchema = z.strictObject({
  taskId: z.string(),
  attempts: z.array(SessionAttemptSchema),
  padded: z.number(),
  unpadded: z.number(),
});
export type SessionResult = z.infer<typeof SessionResultSchema>;

/** Builds the result and its W-AUC (Eq. 1) from the attempts, K being the planned session length. */
export function sessionResult(taskId: string, attempts: SessionAttempt[], k: number): SessionResult {
  const scores = Array.from({ length: k }, (_, i) => attempts.find((a) => a.attempt === i + 1)?.score ?? null);
  const w = weightedAucBothWays(scores, k);
  return { taskId, attempts, padded: w.padded, unpadded: w.unpadded };
}

/** Runs RunTTL(strategy, task): K attempts in which the meta-agent governed by `strategy` rewrites the guide. */
export type RunSession = (input: { strategy: string; taskId: string; label: string }) => Promise<SessionResult>;
