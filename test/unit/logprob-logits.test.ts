import { describe, expect, it } from 'vitest';
import { bestOptionLogits, locateIndexTokens, logitsAtIndexToken, verbalizedLogits } from '../../src/core/llm/logprob-logits.ts';
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
    // Absent: floor = lowest logit found (−1.2) − 1.
    expect(logits.get(3)).toBeCloseTo(-2.2, 12);
    expect(floored).toEqual([3]);
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
