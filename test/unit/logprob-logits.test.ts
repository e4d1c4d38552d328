import { describe, expect, it } from 'vitest';
import { bestOptionLogits, locateIndexTokens, logitsAtIndexToken, missingOptionFloor, verbalizedLogits } from '../../src/core/llm/logprob-logits.ts';
import { extractJsonText, extractModelJson } from '../../src/core/llm/parse-model-json.ts';
import type { TokenLogprob } from '../../src/core/ports.ts';

const tok = (token: string, logprob = -0.01, top: [string, number][] = []): TokenLogprob => ({
  token,
  logprob,
  top: top.map(([t, l]) => ({ token: t, logprob: l })),
});

describe('locateIndexTokens', () => {
  it('finds the digit token after the key by text offsets, whatever the tokenization', () => {
    const tokens = [tok('{"'), tok('best'), tok('":'), tok(' '), tok('3'), tok('}')];
    expect(locateIndexTokens(tokens, 'best')).toEqual([{ tokenIndex: 4, charOffset: 9, value: 3 }]);
    // Key and digit fused in one token.
    const fused = [tok('{"best'), tok('":2'), tok('}')];
    expect(locateIndexTokens(fused, 'best')).toEqual([{ tokenIndex: 1, charOffset: 8, value: 2 }]);
    expect(locateIndexTokens(fused, 'option')).toEqual([]);
  });
});

describe('logitsAtIndexToken', () => {
  it('sums alternatives that spell the same option and ignores other frames', () => {
    const t = tok(' 2', -0.5, [[' 2', -0.5], ['2', -2], [' 1', -1.2], ['":1', -0.1], [' x', -3]]);
    const { logits, floored } = logitsAtIndexToken(t, [1, 2, 3]);
    expect(logits.get(2)).toBeCloseTo(Math.log(Math.exp(-0.5) + Math.exp(-2)), 12);
    expect(logits.get(1)).toBe(-1.2);
    // Absent. These rounded alternatives sum to more than 1 (e^−0.5 + e^−2 + e^−1.2 + e^−0.1 + e^−3 ≈ 2.0),
    // so the residual is unknown and the bound is p_min / m = e^−3; the floor is half of it.
    expect(logits.get(3)).toBeCloseTo(-3 + Math.log(0.5), 12);
    expect(floored).toEqual([3]);
  });

  it('puts a missing option below every listed alternative, sharing the residual mass (hand-derived)', () => {
    // Listed: ½, ¼, ⅛ and 1/16 (the last one a digit in another frame, `":3`, still a listed alternative).
    // Σ = 15/16, so R = 1/16 = p_min.
    const t = tok(' 2', Math.log(1 / 2), [[' 2', Math.log(1 / 2)], [' 1', Math.log(1 / 4)], [' x', Math.log(1 / 8)], ['":3', Math.log(1 / 16)]]);
    // One option missing: u = min(1/16, R/1) = 1/16, floor = log(1/32).
    const one = logitsAtIndexToken(t, [1, 2, 3]);
    expect(one.logits.get(3)).toBeCloseTo(Math.log(1 / 32), 12);
    expect(one.logits.get(1)).toBeCloseTo(Math.log(1 / 4), 12);
    // Two missing: u = min(1/16, R/2 = 1/32) = 1/32, floor = log(1/64) for each.
    const two = logitsAtIndexToken(t, [1, 2, 3, 4]);
    expect(two.logits.get(3)).toBeCloseTo(Math.log(1 / 64), 12);
    expect(two.logits.get(4)).toBeCloseTo(Math.log(1 / 64), 12);
    expect(two.floored).toEqual([3, 4]);
    // Strictly below the least likely listed alternative (1/16), not "lowest option − 1" (log ¼ − 1 ≈ −2.39 > log 1/16).
    expect(two.logits.get(3)!).toBeLessThan(Math.log(1 / 16));
  });

  it('missingOptionFloor: residual bound, p_min bound, and the rounded-sum case', () => {
    // p_min binds: listed ½ and ¼, R = ¼ ≥ p_min = ¼ → u = ¼, floor = log ⅛.
    expect(missingOptionFloor([Math.log(0.5), Math.log(0.25)], 1)).toBeCloseTo(Math.log(1 / 8), 12);
    // R binds: listed 0.9 and 0.05, R = 0.05 = p_min, m = 2 → u = 0.025, floor = log 0.0125.
    expect(missingOptionFloor([Math.log(0.9), Math.log(0.05)], 2)).toBeCloseTo(Math.log(0.0125), 12);
    // Σ ≥ 1: u = p_min / m = 0.4 / 2, floor = log 0.1.
    expect(missingOptionFloor([Math.log(0.7), Math.log(0.4)], 2)).toBeCloseTo(Math.log(0.1), 12);
    // −9999 placeholders are not alternatives.
    expect(missingOptionFloor([Math.log(0.5), -9999], 1)).toBeCloseTo(Math.log(0.25), 12);
  });

  it('returns null when there is no best token', () => {
    expect(bestOptionLogits([tok('{"option": 1}')], [1])).toBeNull();
    expect(bestOptionLogits(null, [1])).toBeNull();
  });
});

describe('verbalizedLogits', () => {
  it('clamps to [1, 100], normalizes, takes the log', () => {
    expect(verbalizedLogits([80, 20])).toEqual([Math.log(0.8), Math.log(0.2)]);
    expect(verbalizedLogits([0, 99, 250])).toEqual([Math.log(1 / 200), Math.log(99 / 200), Math.log(100 / 200)]);
  });
});

describe('extractJsonText', () => {
  it('takes the first fenced object, else the first balanced object, past think blocks', () => {
    expect(extractJsonText('<think>{"no": 1}</think> ok {"a": "}", "b": {"c": 1}} trailing {"d": 2}')).toBe('{"a": "}", "b": {"c": 1}}');
    expect(extractJsonText('text\n```json\n{"x": 1}\n```')).toBe('{"x": 1}');
    expect(extractJsonText('no json here')).toBeNull();
  });

  it('repairs a cut-off answer', () => {
    expect(extractModelJson('{"candidates": [{"option": 1, "action": "click([3])"')).toEqual({
      ok: true,
      value: { candidates: [{ option: 1, action: 'click([3])' }] },
      repaired: true,
    });
  });
});
