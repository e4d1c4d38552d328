/** A seam candidate with nothing in it but what the caller gives (logits default to 0, no evidence). */
import type { Candidate } from '../../src/core/learning/candidate.ts';
import type { Action } from '../../src/core/page/action.ts';

export function testCandidate(over: Partial<Candidate> & { semantic: string }, action: Action = { type: 'go_back' }): Candidate {
  const adjustedLogit = over.adjustedLogit ?? 0;
  return {
    action,
    origin: 'model',
    baseLogit: adjustedLogit,
    adjustedLogit,
    baseProb: 0,
    adjustedProb: 0,
    evidence: {},
    ...over,
  };
}
