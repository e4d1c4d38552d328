// Issue 10, item 6: remembered actions that stop resolving on the same page,
// where another control of their role now stands (issue 23: evidence that the
// site changed), are demoted, counted and marked stale — never silently dropped.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { IdbStepRowStore } from '../../../adapters/idb/idb-step-row-store.ts';
import { JitrlLearner } from '../core/jitrl-learner.ts';
import { rankNeighbours, STALE_DEMOTION } from '../core/retrieve-neighbours.ts';
import type { StepContext } from '../../../core/learning/learner.ts';
import { InMemoryMemoryStore } from '../core/transition.ts';
import type { MemoryStore } from '../core/transition.ts';
import { tokenize } from '../../../core/page/tokenize.ts';
import { DEFAULT_JITRL } from '../core/settings.ts';
import { click, pageOf, scriptedRandom, transition, stepValuesOf } from './jitrl-helpers.ts';

const GONE = 'click(<button "Old checkout">)';
const HERE = 'click(<button "Add red shirt">)';
const page = pageOf([{ ref: '1', role: 'button', name: 'Add red shirt' }]);
const context: StepContext = {
  episodeId: 'now', stepIndex: 0, task: 'add the red shirt to the cart', origin: 'https://shop.test', url: 'https://shop.test/products/42',
  regUrl: '/products/ID', observation: { url: 'https://shop.test/products/42', title: 'Shirts', nodes: [{ ref: '1', role: 'button', name: 'Add red shirt' }] } as unknown as StepContext['observation'], effectiveState: [],
};

async function adjustOnce(store: MemoryStore, at: number) {
  const learner = new JitrlLearner({ store, settings: () => DEFAULT_JITRL, random: scriptedRandom(0.9), clock: { now: () => at } });
  return learner.adjust({ context, candidates: page.propose([{ action: click('1'), logit: 0 }]), resolve: page.resolve });
}

describe.each([
  ['in memory', async () => new InMemoryMemoryStore() as MemoryStore],
  ['IndexedDB', async () => (await IdbStepRowStore.open({ factory: new IDBFactory() })) as MemoryStore],
])('stale memory (%s store)', (_name, open) => {
  it('counts each miss on the transition, keeps it, and says so', async () => {
    const store = await open();
    const url = 'https://shop.test/products/42';
    await store.putEpisode('old', [transition({ id: 'old:0', action: GONE, url }), transition({ id: 'old:1', action: HERE, stepIndex: 1, url })]);
    const out = await adjustOnce(store, 7000);
    expect(stepValuesOf(out).droppedMemoryActions).toBe(1);
    expect(out.notes).toContain('1 remembered action(s) not on this page: 1 transition marked stale (this page shows another control in their place), demoted in retrieval');
    const rows = await store.all();
    expect(rows.find((t) => t.id === 'old:0')).toMatchObject({ stale: 1, staleAt: 7000 });
    expect(rows.find((t) => t.id === 'old:1')!.stale).toBeUndefined();
    await adjustOnce(store, 8000);
    expect((await store.all()).find((t) => t.id === 'old:0')).toMatchObject({ stale: 2, staleAt: 8000 });
    expect(await store.count()).toBe(2);
    expect(await store.markStale(['nope'], 9000)).toBe(0);
  });
});

describe('demotion in retrieval', () => {
  it('each miss scales the similarity by STALE_DEMOTION, so a transition that keeps missing falls below r', () => {
    expect(STALE_DEMOTION).toBe(0.9);
    const query = { origin: 'https://shop.test', regUrl: '/products/ID', stateTokens: [], taskTokens: tokenize('add the red shirt to the cart'), stepIndex: 0 };
    const rows = [transition({ id: 'a:0', stale: 1 }), transition({ id: 'b:0' }), transition({ id: 'c:0', stale: 3 })];
    const out = rankNeighbours(rows, query, DEFAULT_JITRL);
    expect(out.map((n) => [n.transition.id, n.similarity])).toEqual([['b:0', 1], ['a:0', expect.closeTo(0.9, 12)]]);
  });
});
