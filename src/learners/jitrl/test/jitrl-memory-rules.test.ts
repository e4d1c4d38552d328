// Issue 10, item 2 and the per-step scale of Ã: memory-only actions sit below
// the model, rejected or failed (state, action) pairs are barred, loose
// resolutions show the element they act on, and tiny advantages stay tiny.
import { describe, expect, it } from 'vitest';
import { estimateValues, MEMORY_ONLY_MARGIN, SETTLED_RETURN, type EstimateInput } from '../core/estimate-values.ts';
import type { Neighbour } from '../core/transition.ts';
import { DEFAULT_JITRL } from '../core/settings.ts';
import { click, pageOf, scriptedRandom, transition, valueOf } from './jitrl-helpers.ts';

const A = 'click(<button "Blue shirt">)';
const B = 'click(<button "Red shirt">)';
const D = 'click(<button "Wishlist">)';
const OLD = 'click(<button "Wish list (old)">)';
const page = pageOf([
  { ref: '1', role: 'button', name: 'Blue shirt' },
  { ref: '2', role: 'button', name: 'Red shirt' },
  { ref: '3', role: 'link', name: 'Size guide' },
  { ref: '4', role: 'button', name: 'Wishlist' },
]);
const zA = Math.log(0.5), zB = Math.log(0.3), zC = Math.log(0.2);
const model = [{ action: click('1'), logit: zA }, { action: click('2'), logit: zB }, { action: click('3'), logit: zC }];
const nb = (id: string, action: string, ret: number, similarity = 1): Neighbour => ({ transition: transition({ id, action }), similarity, ret });
const input = (p: Partial<EstimateInput>): EstimateInput => ({
  candidates: page.propose(model),
  neighbours: [],
  ...page,
  settings: DEFAULT_JITRL,
  random: scriptedRandom(0.9),
  ...p,
});

describe('memory-only candidates never outrank the model by default', () => {
  it('enter one margin below the lowest model logit, not at z = 0 (the top of a log-probability scale)', () => {
    const out = estimateValues(input({ neighbours: [nb('n1:0', D, 0.5), nb('n2:0', A, 0.5)] }));
    const d = out.candidates.find((c) => c.semantic === D)!;
    expect(MEMORY_ONLY_MARGIN).toBe(1);
    expect(d.origin).toBe('memory');
    expect(d.baseLogit).toBeCloseTo(zC - 1, 15);
    for (const c of out.candidates.filter((x) => x.origin === 'model')) expect(d.baseLogit).toBeLessThan(c.baseLogit);
    // Q_D = V: no advantage, so the model's top stays on top.
    const top = [...out.candidates].sort((x, y) => y.adjustedLogit - x.adjustedLogit)[0]!;
    expect(top.semantic).toBe(A);
  });

  it('with no model candidate at all, memory-only actions keep z = 0 (nothing to sit below)', () => {
    const out = estimateValues(input({ candidates: [], neighbours: [nb('n1:0', D, 1)] }));
    expect(out.candidates.map((c) => [c.semantic, c.baseLogit])).toEqual([[D, 0]]);
  });

  it('a remembered action that resolves only loosely is shown as the element it will act on', () => {
    const loose = { resolve: (s: string) => (s === OLD ? { action: click('4'), semantic: D } : page.resolve(s)) };
    const out = estimateValues(input({ ...loose, neighbours: [nb('n1:0', OLD, 1)] }));
    const m = out.candidates.find((c) => c.origin === 'memory')!;
    expect(m.semantic).toBe(D);
    expect(m.action).toEqual(click('4'));
    expect(m.remembered).toBe(OLD);
    // its evidence is still the remembered action's: Q = 1 from one neighbour
    expect(valueOf(m)).toMatchObject({ q: 1, support: 1, valueKind: 'known' });
  });
});

describe('barred (state, action) pairs', () => {
  it('a rejection in this very state bars the action even when other similar states liked it', () => {
    const neighbours = [
      nb('e1:0:rejected:0', A, -1, 1),
      nb('e2:0', A, 3, 0.85),
      nb('e3:0', A, 3, 0.85),
    ];
    const out = estimateValues(input({ neighbours }));
    const a = out.candidates.find((c) => c.semantic === A)!;
    // Q_A = mean(−1, 3, 3) > V: the maths alone would keep it on top …
    expect(a.adjustedLogit).toBeGreaterThan(Math.max(...out.candidates.filter((c) => c !== a).map((c) => c.adjustedLogit)));
    // … the person's rejection in this state bars it.
    expect(a.barred).toBe('rejected');
    expect(out.candidates.filter((c) => c.barred !== undefined)).toHaveLength(1);
  });

  it('bars and settles only on this very URL: another instance of the page type says nothing about this one', () => {
    const other = { transition: transition({ id: 'f1:1', action: B, url: 'https://shop.test/products/203' }), similarity: 1, ret: -1 };
    const same = { transition: transition({ id: 'f2:1', action: B, url: 'https://shop.test/products/202#top' }), similarity: 1, ret: -1 };
    expect(estimateValues(input({ neighbours: [other], url: 'https://shop.test/products/202' })).candidates.find((c) => c.semantic === B)!.barred).toBeUndefined();
    expect(estimateValues(input({ neighbours: [same], url: 'https://shop.test/products/202' })).candidates.find((c) => c.semantic === B)!.barred).toBe('failed');
  });

  it('a rejection in a merely similar state does not bar', () => {
    const out = estimateValues(input({ neighbours: [nb('e1:0:rejected:0', A, -1, 0.9)] }));
    expect(out.candidates.find((c) => c.semantic === A)!.barred).toBeUndefined();
  });

  it('an action whose returns in this very state average a blamed failure is barred as failed', () => {
    const out = estimateValues(input({ neighbours: [nb('f1:2', B, -1, 1), nb('f2:2', B, -0.2, 1)] }));
    // mean −0.6 ≤ −0.5
    expect(out.candidates.find((c) => c.semantic === B)!.barred).toBe('failed');
    const kept = estimateValues(input({ neighbours: [nb('f1:2', B, -1, 1), nb('f2:2', B, 0.2, 1)] }));
    expect(kept.candidates.find((c) => c.semantic === B)!.barred).toBeUndefined();
  });
});

describe('settled (state, action) pairs: exploitation after success', () => {
  it('only this very state\'s returns settle an action, never a similar state\'s (another instance)', () => {
    expect(SETTLED_RETURN).toBe(0.5);
    const here = estimateValues(input({ neighbours: [nb('s1:0', B, 0.6, 1), nb('s2:0', A, 2, 0.9)] }));
    expect(here.candidates.find((c) => c.semantic === B)!.settled).toBe(true);
    // A's Q = 2 comes from a similar state only: valued, but not settled
    expect(here.candidates.find((c) => c.semantic === A)!.settled).toBeUndefined();
    // own credit r_t = 0.4 (an action error on a success path: 0.5 − 0.25 = 0.25 is another such): below half a success
    const weak = estimateValues(input({ neighbours: [{ transition: transition({ id: 's1:0', action: B, reward: 0.4 }), similarity: 1, ret: 0.4 }] }));
    expect(weak.candidates.find((c) => c.semantic === B)!.settled).toBeUndefined();
  });
});

describe('the scale of Ã (advantage floor)', () => {
  it('a tiny negative V moves unseen actions by a tiny amount, not by a full β', () => {
    // One neighbour: the taken action A with G = −0.01 (a later step's failure seen through γ).
    const out = estimateValues(input({ neighbours: [nb('t:0', A, -0.01)], random: scriptedRandom(0.9) }));
    const [a, b, c] = out.candidates;
    expect(valueOf(a).normAdvantage).toBeCloseTo(0, 15);
    // A_B = 0 − (−0.01) = 0.01; divided by max(0.01, floor 1) + ε
    expect(valueOf(b).normAdvantage).toBeCloseTo(0.01 / (1 + 1e-8), 12);
    expect(c!.adjustedLogit).toBeCloseTo(zC + 2 * 0.01, 7);
  });

  it('advantageFloor 0 is Eq. 25 exactly', () => {
    const out = estimateValues(input({ neighbours: [nb('t:0', A, -0.01)], settings: { ...DEFAULT_JITRL, advantageFloor: 0 } }));
    expect(valueOf(out.candidates[1]).normAdvantage).toBeCloseTo(0.01 / (0.01 + 1e-8), 12);
  });
});
