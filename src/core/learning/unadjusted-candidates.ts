/**
 * Candidate records when no learner adjusts the logits (static policy, or
 * JitRL switched off or failing): adjusted = base.
 */
import type { Action } from '../page/action.ts';
import type { ProposedCandidate } from '../policy/policy.ts';
import type { CandidateRecord } from '../episode/episode.ts';
import { softmax } from './shared/softmax.ts';

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

/**
 * Joins a later adjuster's output onto the earlier one's: "base" stays the
 * policy's z (softmax taken again over the new set), and a later learner that
 * has no values of its own for a candidate keeps the earlier learner's.
 */
export function chainAdjusted(previous: readonly CandidateRecord[], next: readonly CandidateRecord[]): CandidateRecord[] {
  const before = new Map(previous.map((r) => [r.semantic, r]));
  const baseLogits = next.map((r) => before.get(r.semantic)?.baseLogit ?? r.baseLogit);
  const baseProbs = softmax(baseLogits);
  return next.map((r, i): CandidateRecord => {
    const p = before.get(r.semantic);
    const values = p && r.valueKind === 'none'
      ? { q: p.q, advantage: p.advantage, normAdvantage: p.normAdvantage, support: p.support, valueKind: p.valueKind }
      : {};
    return { ...r, ...values, origin: p?.origin ?? r.origin, baseLogit: baseLogits[i]!, baseProb: baseProbs[i]! };
  });
}
