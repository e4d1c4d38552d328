/**
 * Issue 23, learning finding 6: on an instance never seen, V (Eq. 4) is the
 * mean return over every neighbour. Retrieval used to drop the failures of
 * sibling URLs and keep their successes, so V came out biased upward (1
 * instead of 0 below) and every candidate without evidence was pushed down by
 * a full β. A sibling's failure still says nothing about the same action here
 * (it stays out of Q and out of the memory-only candidates).
 */
import { describe, expect, it } from 'vitest';
import { JitrlLearner } from '../core/jitrl-learner.ts';
import type { StepContext } from '../../../core/learning/learner.ts';
import { InMemoryMemoryStore } from '../core/transition.ts';
import { DEFAULT_JITRL } from '../core/settings.ts';
import { click, pageOf, scriptedRandom, transition, stepValuesOf, valueOf } from './jitrl-helpers.ts';

const URL_NEW = 'https://shop.test/products/42';
const elements = [{ ref: '1', role: 'button', name: 'Add to cart' }, { ref: '2', role: 'link', name: 'Size guide' }, { ref: '3', role: 'link', name: 'Reviews' }];
const context: StepContext = {
  episodeId: 'now', stepIndex: 0, task: 'add the red shirt to the cart', origin: 'https://shop.test', url: URL_NEW, regUrl: '/products/ID', effectiveState: [],
  observation: { url: URL_NEW, title: 'Shirt', nodes: [] } as unknown as StepContext['observation'],
};

describe('V on a new instance (finding 6)', () => {
  it('averages the sibling failure too: V = (1 + −1)/2 = 0; Q keeps the failure on its own page', async () => {
    const store = new InMemoryMemoryStore();
    await store.putEpisode('s', [transition({ id: 's:0', url: 'https://shop.test/products/41', action: 'click(<button "Add to cart">)', futureRewards: [1] })]);
    await store.putEpisode('f', [transition({ id: 'f:0', url: 'https://shop.test/products/43', action: 'click(<link "Reviews">)', futureRewards: [-1] })]);
    const learner = new JitrlLearner({ store, settings: () => DEFAULT_JITRL, random: scriptedRandom(0.9), clock: { now: () => 1 } });
    const page = pageOf(elements);
    const out = await learner.adjust({ context, candidates: page.propose([{ action: click('1'), logit: 0 }, { action: click('2'), logit: 0 }]), resolve: page.resolve });
    expect(stepValuesOf(out).v).toBe(0);
    // Add to cart: Q = 1, A = 1, Ã = 1/(1 + ε), z' = 2·Ã. Size guide: unseen, λ missed (0.9 ≥ 0.05): Q = 0, A = 0.
    expect(out.candidates.map((c) => [c.semantic, valueOf(c).q, valueOf(c).advantage])).toEqual([
      ['click(<button "Add to cart">)', 1, 1],
      ['click(<link "Size guide">)', 0, 0],
    ]);
    expect(out.candidates[0]!.adjustedLogit).toBeCloseTo(2, 6);
    expect(out.candidates[1]!.adjustedLogit).toBe(0);
  });

  it('a sibling\'s failed action proposed here has no evidence: Q = 0 (unseen), not the sibling\'s −1', async () => {
    const store = new InMemoryMemoryStore();
    await store.putEpisode('s', [transition({ id: 's:0', url: 'https://shop.test/products/41', action: 'click(<button "Add to cart">)', futureRewards: [1] })]);
    await store.putEpisode('f', [transition({ id: 'f:0', url: 'https://shop.test/products/43', action: 'click(<link "Reviews">)', futureRewards: [-1] })]);
    const learner = new JitrlLearner({ store, settings: () => DEFAULT_JITRL, random: scriptedRandom(0.9), clock: { now: () => 1 } });
    const page = pageOf(elements);
    const out = await learner.adjust({ context, candidates: page.propose([{ action: click('1'), logit: 0 }, { action: click('3'), logit: 0 }]), resolve: page.resolve });
    // V = (1 + −1)/2 = 0. Reviews: its only neighbour failed on product 43, so here it is unseen
    // (λ missed: Q = 0, A = 0, z' = z); counted as support it would be Q = −1, A = −1, z' = −2.
    expect(stepValuesOf(out).v).toBe(0);
    expect(out.candidates.map((c) => [c.semantic, valueOf(c).q, valueOf(c).advantage, valueOf(c).support])).toEqual([
      ['click(<button "Add to cart">)', 1, 1, 1],
      ['click(<link "Reviews">)', 0, 0, 0],
    ]);
    expect(out.candidates[1]!.adjustedLogit).toBe(0);
  });
});

