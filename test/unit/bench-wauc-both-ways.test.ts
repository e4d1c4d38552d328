import { describe, expect, it } from 'vitest';
import { summarizeLearner, weightedAucBothWays, type AttemptRecord } from '../../bench/metrics.ts';

function rec(taskId: string, attempt: number, success: boolean): AttemptRecord {
  return {
    learner: 'metattl', taskId, template: null, attempt, outcome: success ? 'success' : 'failure', reward: success ? 1 : 0,
    steps: 1, modelCalls: 0, promptTokens: 0, completionTokens: 0, decisionLatenciesMs: [], durationMs: 1,
    error: null, instruction: 'x', answer: null, actions: [],
  };
}

describe('W-AUC padded to K and unpadded (Meta-TTL Eq. 1, w_k = k)', () => {
  it('agrees when every attempt ran', () => {
    // K = 3, s = [0, 1, 1]: (2 + 3) / (1 + 2 + 3) = 5/6 both ways.
    expect(weightedAucBothWays([0, 1, 1], 3)).toEqual({ padded: 5 / 6, unpadded: 5 / 6, ran: 3 });
  });
  it('differs when the session stopped after a success at attempt 2 of 5', () => {
    // numerator 2·1 = 2; padded denominator 1+2+3+4+5 = 15; unpadded 1+2 = 3.
    const w = weightedAucBothWays([0, 1], 5);
    expect(w.padded).toBeCloseTo(2 / 15, 12);
    expect(w.unpadded).toBeCloseTo(2 / 3, 12);
    expect(w.ran).toBe(2);
  });
  it('keeps each attempt at its own weight when a middle attempt is missing', () => {
    // K = 4, s = [1, null, 0, 1]: numerator 1 + 4 = 5; padded /10; unpadded /(1+3+4) = /8.
    const w = weightedAucBothWays([1, null, 0, 1], 4);
    expect(w.padded).toBeCloseTo(0.5, 12);
    expect(w.unpadded).toBeCloseTo(5 / 8, 12);
  });
  it('weights partial rewards (J/J_max) the same way', () => {
    // K = 3, s = [0.5, 0.25] then stopped: numerator 0.5 + 0.5 = 1; padded 1/6; unpadded 1/3.
    const w = weightedAucBothWays([0.5, 0.25], 3);
    expect(w.padded).toBeCloseTo(1 / 6, 12);
    expect(w.unpadded).toBeCloseTo(1 / 3, 12);
  });
  it('is 0 both ways for an empty session', () => {
    expect(weightedAucBothWays([], 5)).toEqual({ padded: 0, unpadded: 0, ran: 0 });
    expect(weightedAucBothWays([], 0)).toEqual({ padded: 0, unpadded: 0, ran: 0 });
  });
  it('the benchmark summary reports both for tasks that stopped early', () => {
    // Task A: 0, 1 (then stopped) of K = 4 → padded 2/10, unpadded 2/3.
    // Task B: 1, 1, 1, 1 → 1 both ways.
    const records = [rec('A', 1, false), rec('A', 2, true), ...[1, 2, 3, 4].map((k) => rec('B', k, true))];
    const s = summarizeLearner('metattl', records, 4);
    expect(s.missing).toBe(2);
    expect(s.wauc).toBeCloseTo((0.2 + 1) / 2, 12);
    expect(s.waucUnpadded).toBeCloseTo((2 / 3 + 1) / 2, 12);
  });
});
