import { describe, expect, it } from 'vitest';
import { rankNeighbours, retrieveNeighbours, thresholdAt, type RetrievalQuery } from '../core/retrieve-neighbours.ts';
import { InMemoryMemoryStore } from '../core/transition.ts';
import { stateTokensOf, tokenize } from '../../../core/page/tokenize.ts';
import { DEFAULT_JITRL, type JitrlSettings } from '../core/settings.ts';
import { transition } from './jitrl-helpers.ts';

const S: JitrlSettings = { ...DEFAULT_JITRL };
const query = (p: Partial<RetrievalQuery> = {}): RetrievalQuery => ({
  origin: 'https://shop.test',
  regUrl: '/products/ID',
  stateTokens: [],
  taskTokens: tokenize('add the red shirt to the cart'),
  stepIndex: 0,
  ...p,
});

describe('threshold r', () => {
  it('is constant by default and decays linearly to the floor with the step (authors\' code)', () => {
    expect(thresholdAt(7, S)).toBe(0.8);
    const decaying = { threshold: 0.8, thresholdFloor: 0.7, thresholdDecaySteps: 10 };
    expect(thresholdAt(0, decaying)).toBe(0.8);
    expect(thresholdAt(5, decaying)).toBeCloseTo(0.75, 15);
    expect(thresholdAt(10, decaying)).toBeCloseTo(0.7, 15);
    expect(thresholdAt(30, decaying)).toBeCloseTo(0.7, 15);
  });
});

describe('rankNeighbours', () => {
  it('scores 0.7·J(state) + 0.3·J(task) and returns G with γ', () => {
    const [n] = rankNeighbours([transition({ id: 'a:0', futureRewards: [1, 1] })], query(), S);
    expect(n!.similarity).toBe(1);
    expect(n!.ret).toBeCloseTo(1.1, 15);
  });

  it('needs task Jaccard strictly above the floor', () => {
    // tokens {add, red, shirt, to, cart}: "red cart" shares 2 of 5 → 0.4; "red hat" → {red} / 6 ≈ 0.167
    const rows = [transition({ id: 'a:0', task: 'red cart' }), transition({ id: 'b:0', task: 'red hat' })];
    expect(rankNeighbours(rows, query(), { ...S, threshold: 0 }).map((n) => n.transition.id)).toEqual(['a:0']);
    expect(rankNeighbours(rows, query(), { ...S, threshold: 0, taskFloor: 0.4 })).toEqual([]);
  });

  it('keeps scores ≥ r only, with r decaying by step', () => {
    // state {fill, textbox, size, 42, ⟨fill textbox "size"⟩} vs query {…, 40, ⟨…⟩}: J = 4/6; task J = 1
    const t = transition({ id: 'a:0', effectiveState: ['fill(<textbox "Size">, "42")'] });
    const q = query({ stateTokens: stateTokensOf(['fill(<textbox "Size">, "40")']) });
    const score = 0.7 * (4 / 6) + 0.3 * 1; // 0.7667
    expect(rankNeighbours([t], q, S)).toEqual([]);
    const decaying = { ...S, thresholdFloor: 0.7, thresholdDecaySteps: 10 };
    expect(rankNeighbours([t], { ...q, stepIndex: 3 }, decaying)).toEqual([]); // r = 0.77
    const [n] = rankNeighbours([t], { ...q, stepIndex: 4 }, decaying); // r = 0.76
    expect(n!.similarity).toBeCloseTo(score, 15);
  });

  it('sorts by score, then newest, and cuts to k only when useTopK is on', () => {
    const rows = [
      transition({ id: 'old:0', createdAt: 1 }),
      transition({ id: 'new:0', createdAt: 9 }),
      transition({ id: 'partial:0', createdAt: 20, task: 'add the red shirt' }), // task J = 3/5 → 0.88
      transition({ id: 'mid:0', createdAt: 5 }),
    ];
    expect(rankNeighbours(rows, query(), S).map((n) => n.transition.id)).toEqual(['new:0', 'mid:0', 'old:0', 'partial:0']);
    expect(rankNeighbours(rows, query(), { ...S, k: 2 }).map((n) => n.transition.id)).toEqual(['new:0', 'mid:0']);
    expect(rankNeighbours(rows, query(), { ...S, k: 2, useTopK: false })).toHaveLength(4);
  });
});

describe('same-URL backoff', () => {
  const rows = [
    transition({ id: 'a:0', url: 'https://shop.test/products/41', futureRewards: [-1] }),
    transition({ id: 'b:0', url: 'https://shop.test/products/42#reviews', futureRewards: [1] }),
    transition({ id: 'c:0', futureRewards: [-1] }), // written before URLs were kept
  ];
  it('uses only neighbours from this very URL when there are any (fragment ignored)', () => {
    expect(rankNeighbours(rows, query({ url: 'https://shop.test/products/42' }), S).map((n) => n.transition.id)).toEqual(['b:0']);
  });
  it('falls back to the page type on an instance never seen, and when switched off — failures of sibling pages included (they count for V; estimateValues keeps them out of Q)', () => {
    expect(rankNeighbours(rows, query({ url: 'https://shop.test/products/7' }), S).map((n) => n.transition.id).sort()).toEqual(['a:0', 'b:0', 'c:0']);
    expect(rankNeighbours(rows, query({ url: 'https://shop.test/products/42' }), { ...S, preferSameUrl: false }).map((n) => n.transition.id).sort()).toEqual(['a:0', 'b:0', 'c:0']);
    expect(rankNeighbours(rows, query(), S)).toHaveLength(3);
  });
});

describe('retrieveNeighbours', () => {
  it('reads only the same origin and page type, through the bounded page read', async () => {
    const store = new InMemoryMemoryStore();
    await store.putEpisode('a', [transition({ id: 'a:0', createdAt: 1 })]);
    await store.putEpisode('b', [transition({ id: 'b:0', createdAt: 2 })]);
    await store.putEpisode('c', [transition({ id: 'c:0', regUrl: '/cart' })]);
    await store.putEpisode('d', [transition({ id: 'd:0', origin: 'https://other.test' })]);
    expect((await retrieveNeighbours(store, query(), S)).map((n) => n.transition.id)).toEqual(['b:0', 'a:0']);
    expect((await retrieveNeighbours(store, query(), S, 1)).map((n) => n.transition.id)).toEqual(['b:0']);
  });
});
