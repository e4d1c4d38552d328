/**
 * What EvoTest decides at the start of an episode, checkpointed on the
 * episode so a worker restart mid-episode resumes with the same
 * configuration: the lineage, the configuration chosen and why.
 */
import * as z from 'zod';
import { EvoConfigurationSchema } from './configuration.ts';

export const EvoPlanSchema = z.strictObject({
  lineageKey: z.string(),
  configurationId: z.string(),
  configuration: EvoConfigurationSchema,
  mode: z.enum(['model', 'offline']),
  pinned: z.boolean(),
  /** What chose the configuration (absent on plans written before the rules existed: UCB or the pin). */
  chosenBy: z.enum(['pinned', 'ucb', 'repeat-winner', 'back-to-best']).optional(),
  /** The UCB table over the pool (null when pinned). */
  ucb: z.array(z.strictObject({ id: z.string(), n: z.number().int(), mean: z.number().nullable(), normalized: z.number(), bonus: z.number(), ucb: z.number() })).nullable(),
});
export type EvoPlan = z.infer<typeof EvoPlanSchema>;

/** Per-step evidence: what EvoTest's memory hinted and penalized, under which configuration. */
export const EvoStepEvidenceSchema = z.strictObject({
  configurationId: z.string(),
  hinted: z.array(z.string()),
  avoided: z.array(z.string()),
  milestones: z.array(z.string()),
});
export type EvoStepEvidence = z.infer<typeof EvoStepEvidenceSchema>;

/** Per-candidate evidence (`candidate.evidence.evotest`), only on candidates whose logit a hint rule shifted. */
export const EvoCandidateEvidenceSchema = z.strictObject({
  /** Nats added to the candidate's logit: the instruction bonus (> 0) or the avoid penalty (< 0). */
  shift: z.number(),
  reason: z.enum(['hinted', 'avoided']),
});
export type EvoCandidateEvidence = z.infer<typeof EvoCandidateEvidenceSchema>;

/**
 * Stored steps from before the shifts moved to the candidates kept them as a
 * `shifts` list (`{ semantic, shift, reason }`) in the step evidence: each
 * entry goes to its candidate on load (stored-step-upgrade.ts).
 */
export const EVOTEST_FORMER_FIELDS = { perCandidate: ['shifts'] } as const;
