/**
 * Issue 23, learning finding 3: only evidence that the site changed demotes
 * memory. An element that is not on the page yet, or that belongs to another
 * instance of the page type, is not "gone": its transitions keep their
 * similarity, so after three such visits they are still retrieved.
 */
import { describe, expect, it } from 'vitest';
import { JitrlLearner } from '../core/jitrl-learner.ts';
import { retrieveNeighbours } from '../core/retrieve-neighbours.ts';
import type { StepContext } from '../../../core/learning/learner.ts';
import { InMemoryMemoryStore } from '../core/transition.ts';
import { stateTokensOf, tokenize } from '../../../core/page/tokenize.ts';
import { DEFAULT_JITRL } from '../core/settings.ts';
import { click, pageOf, scriptedRandom, transition, type PageElement } from './jitrl-helpers.ts';

const TASK = 'add the red shirt to the cart';
const REMEMBERED = 'click(<button "Add to cart">)';

function contextAt(url: string, elements: PageElement[], effectiveState: string[] = []): StepContext {
  return {
    episodeId: 'now', stepIndex: 0, task: TASK, origin: 'https://shop.test', url, regUrl: '/products/ID', effectiveState,
    observation: { url, title: 'Shirt', nodes: elements.map((e) => ({ ...e, kind: 'interactive', states: {}, depth: 1, inViewport: true })) } as unknown as StepContext['observation'],
  };
}

async function visit(store: InMemoryMemoryStore, url: string, elements: PageElement[], at: number, effectiveState: string[] = []) {
  const learner = new JitrlLearner({ store, settings: () => DEFAULT_JITRL, random: scriptedRandom(0.9), clock: { now: () => at } });
  const page = pageOf(elements);
  return learner.adjust({ context: contextAt(url, elements, effectiveState), candidates: page.propose([{ action: click(elements[0]!.ref), logit: 0 }]), resolve: page.resolve });
}

const stillRetrieved = async (store: InMemoryMemoryStore, url: string, stateTokens: string[] = []) =>
  (await retrieveNeighbours(store, { origin: 'https://shop.test', regUrl: '/products/ID', stateTokens, taskTokens: tokenize(TASK), stepIndex: 0, url }, DEFAULT_JITRL))
    .map((n) => [n.transition.id, n.similarity]);

describe('stale marking needs evidence that the site changed (finding 3)', () => {
  it('another instance of the page type: three visits leave the memory as it was', async () => {
    const store = new InMemoryMemoryStore();
    await store.putEpisode('old', [transition({ id: 'old:0', action: REMEMBERED, url: 'https://shop.test/products/41' })]);
    // Product 42 is sold out: no "Add to cart" here, a "Notify me" button instead.
    for (const at of [1, 2, 3]) {
      const out = await visit(store, 'https://shop.test/products/42', [{ ref: '5', role: 'button', name: 'Notify me' }], at);
      expect(out.notes).toContain('1 remembered action(s) not on this page (not yet, or another instance): memory kept as it is');
    }
    expect((await store.all())[0]!.stale).toBeUndefined();
    expect(await stillRetrieved(store, 'https://shop.test/products/41')).toEqual([['old:0', 1]]);
  });

  it('not on the page yet (the same page before its controls arrive): memory kept', async () => {
    const store = new InMemoryMemoryStore();
    const url = 'https://shop.test/products/41';
    await store.putEpisode('old', [transition({ id: 'old:0', action: REMEMBERED, url })]);
    for (const at of [1, 2, 3]) await visit(store, url, [{ ref: '9', role: 'link', name: 'Size guide' }], at);
    expect((await store.all())[0]!.stale).toBeUndefined();
    expect(await stillRetrieved(store, url)).toEqual([['old:0', 1]]);
  });

  it('the same instance, same state, another button where it was: demoted (0.9 per visit, below r = 0.8 after three)', async () => {
    const store = new InMemoryMemoryStore();
    const url = 'https://shop.test/products/41';
    await store.putEpisode('old', [transition({ id: 'old:0', action: REMEMBERED, url })]);
    for (const at of [1, 2, 3]) await visit(store, url, [{ ref: '2', role: 'button', name: 'Add to basket' }], at);
    expect((await store.all())[0]).toMatchObject({ stale: 3, staleAt: 3 });
    expect(await stillRetrieved(store, url)).toEqual([]);
  });

  it('the same instance in another state (similarity below 1): another button there is no evidence, memory kept', async () => {
    const store = new InMemoryMemoryStore();
    const url = 'https://shop.test/products/41';
    // Remembered after three tabs were chosen; now only the first two are.
    const then = ['click(<tab "Shirts">)', 'click(<tab "Cotton">)', 'click(<tab "Linen">)'];
    const now = ['click(<tab "Shirts">)', 'click(<tab "Cotton">)'];
    await store.putEpisode('old', [transition({ id: 'old:0', action: REMEMBERED, url, effectiveState: then })]);
    // State tokens {click, tab, shirts, cotton} and a mark per tab (6) against the same with linen and its mark (8):
    // J = 6/8, similarity 0.7 · 3/4 + 0.3 · 1 = 0.825 — a neighbour (r = 0.8), not the same state.
    expect(await stillRetrieved(store, url, stateTokensOf(now))).toEqual([['old:0', 0.7 * 0.75 + 0.3]]);
    for (const at of [1, 2, 3]) {
      const out = await visit(store, url, [{ ref: '2', role: 'button', name: 'Add to basket' }], at, now);
      expect(out.notes).toContain('1 remembered action(s) not on this page (not yet, or another instance): memory kept as it is');
    }
    expect((await store.all())[0]!.stale).toBeUndefined();
    expect(await stillRetrieved(store, url, stateTokensOf(now))).toEqual([['old:0', 0.7 * 0.75 + 0.3]]);
  });
});
