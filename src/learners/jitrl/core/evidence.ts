/**
 * What JitRL shows for a decision. Per step (`step.evidence.jitrl`): V(s),
 * the neighbours it came from, and the remembered actions that did not
 * resolve on the page. Per candidate (`candidate.evidence.jitrl`): Q, the
 * advantage before and after normalization, the support and which branch of
 * Eq. 6 gave the value.
 */
import * as z from 'zod';

export const JITRL_ID = 'jitrl';

export const NeighbourSummarySchema = z.strictObject({
  transitionId: z.string(),
  episodeId: z.string(),
  task: z.string(),
  action: z.string(),
  similarity: z.number(),
  ret: z.number(),
});
export type NeighbourSummary = z.infer<typeof NeighbourSummarySchema>;

export const JitrlStepEvidenceSchema = z.strictObject({
  /** V(s) (Eq. 4); null when no neighbours were found. */
  v: z.number().nullable(),
  neighbours: z.array(NeighbourSummarySchema),
  /** Memory actions that no longer resolve on this page: dropped and counted. */
  droppedMemoryActions: z.number().int().nonnegative(),
});
export type JitrlStepEvidence = z.infer<typeof JitrlStepEvidenceSchema>;

export const ValueKindSchema = z.enum(['known', 'optimistic', 'neutral', 'none']);

export const JitrlCandidateEvidenceSchema = z.strictObject({
  /** Q(s,a) (Eq. 5/6), null when there were no neighbours at all. */
  q: z.number().nullable(),
  /** A(s,a) = Q − V (Eq. 7) and its normalized form Ã (Eq. 25). */
  advantage: z.number().nullable(),
  normAdvantage: z.number().nullable(),
  /** |N(s,a)|: neighbours that took this action. */
  support: z.number().int().nonnegative(),
  /** 'known' | 'optimistic' (λ branch of Eq. 6) | 'neutral' (Q = 0 branch) | 'none' (no neighbours) */
  valueKind: ValueKindSchema,
});
export type JitrlCandidateEvidence = z.infer<typeof JitrlCandidateEvidenceSchema>;

/**
 * Where the stored format held this evidence before it moved under
 * `evidence.jitrl` (step fields and candidate fields): records written then
 * are upgraded on load (`stored-step-upgrade.ts`), nothing dropped.
 */
export const FORMER_FIELDS = {
  step: ['v', 'neighbours', 'droppedMemoryActions'],
  candidate: ['q', 'advantage', 'normAdvantage', 'support', 'valueKind'],
} as const;
