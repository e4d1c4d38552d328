/**
 * Candidate records when no learner adjusts the logits (static policy, or
 * JitRL switched off or failing): adjusted = base.
 */
import type { Action } from '../page/action.ts';
import type { ProposedCandidate } from '../policy/policy.ts';
import type { CandidateRecord } from './episode.ts';
import { softmax } from '../learning/jitrl/estimate-values.ts';

export function unadjustedCandidates(candidates: ProposedCandidate[], toSemantic: (a: Action) => string): { records: CandidateRecord[]; actions: Action[] } {
  const probs = softmax(candidates.map((c) => c.logit));
  const records = candidates.map((c, i): CandidateRecord => ({
    action: '',
    semantic: toSemantic(c.action),
    origin: 'model',
    ...(c.rationale !== undefined ? { rationale: c.rationale } : {}),
    baseLogit: c.logit,
    adjustedLogit: c.logit,
    baseProb: probs[i]!,
    adjustedProb: probs[i]!,
    q: null,
    advantage: null,
    normAdvantage: null,
    support: 0,
    valueKind: 'none',
  }));
  return { records, actions: candidates.map((c) => c.action) };
}
