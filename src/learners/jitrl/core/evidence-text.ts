/** JitRL's evidence as the terminal demo prints it: V(s) and its neighbours per step; Ã and the value's branch per candidate. */
import type { EvidenceText } from '../../../core/learning/learner-definition.ts';
import { JitrlCandidateEvidenceSchema, JitrlStepEvidenceSchema } from './evidence.ts';

const fmt = (n: number | null) => (n === null ? '—' : n.toFixed(2));

export const jitrlEvidenceText: EvidenceText = {
  step(evidence) {
    const values = JitrlStepEvidenceSchema.safeParse(evidence).data;
    return `V(s) = ${fmt(values?.v ?? null)} from ${values?.neighbours.length ?? 0} neighbours`;
  },
  candidate(evidence) {
    const value = JitrlCandidateEvidenceSchema.safeParse(evidence).data;
    return { 'Ã': fmt(value?.normAdvantage ?? null), evidence: `${value?.valueKind ?? 'none'}${value?.support ? ` ×${value.support}` : ''}` };
  },
};
