import { describe, expect, it } from 'vitest';
import { InMemoryStepRowStore } from '../../src/core/stores/in-memory-step-rows.ts';
import { transition } from '../../src/learners/jitrl/test/jitrl-helpers.ts';

describe('InMemoryStepRowStore', () => {
  it('reads a page type newest first, bounded by the limit', async () => {
    const store = new InMemoryStepRowStore();
    await store.putEpisode('e1', [transition({ id: 'e1:0', createdAt: 1 }), transition({ id: 'e1:1', stepIndex: 1, createdAt: 3, regUrl: '/cart' })]);
    await store.putEpisode('e2', [transition({ id: 'e2:0', createdAt: 2 })]);
    await store.putEpisode('e3', [transition({ id: 'e3:0', createdAt: 5, origin: 'https://other.test' })]);
    expect((await store.byPage('https://shop.test', '/products/ID')).map((t) => t.id)).toEqual(['e2:0', 'e1:0']);
    expect((await store.byPage('https://shop.test', '/products/ID', 1)).map((t) => t.id)).toEqual(['e2:0']);
    expect(await store.byPage('https://shop.test', '/nowhere')).toEqual([]);
    expect(await store.count()).toBe(4);
  });

  it('replaces an episode as a unit and returns copies', async () => {
    const store = new InMemoryStepRowStore();
    await store.putEpisode('e1', [transition({ id: 'e1:0' }), transition({ id: 'e1:1', stepIndex: 1 })]);
    await store.putEpisode('e1', [transition({ id: 'e1:0', reward: -1 })]);
    const rows = await store.all();
    expect(rows.map((t) => [t.id, t.reward])).toEqual([['e1:0', -1]]);
    rows[0]!.reward = 99;
    expect((await store.all())[0]!.reward).toBe(-1);
    await expect(store.putEpisode('e2', [transition({ id: 'e1:5' })])).rejects.toThrow(/belongs to episode e1/);
  });

  it('browses, summarizes, deletes and forgets sites', async () => {
    const store = new InMemoryStepRowStore();
    await store.putEpisode('e1', [
      transition({ id: 'e1:0', createdAt: 1, updatedAt: 10 }),
      transition({ id: 'e1:1', stepIndex: 1, createdAt: 2, updatedAt: 10, regUrl: '/cart', action: 'click(<button "Checkout">)' }),
    ]);
    await store.putEpisode('e2', [transition({ id: 'e2:0', origin: 'https://b.test', updatedAt: 20 })]);
    expect((await store.bySite('https://shop.test', { query: 'CHECKOUT' })).map((t) => t.id)).toEqual(['e1:1']);
    expect((await store.bySite('https://shop.test', { limit: 1, offset: 1 })).map((t) => t.id)).toEqual(['e1:0']);
    expect(await store.sites()).toEqual([
      { origin: 'https://b.test', rows: 1, pages: 1, lastUpdated: 20 },
      { origin: 'https://shop.test', rows: 2, pages: 2, lastUpdated: 10 },
    ]);
    expect(await store.deleteRows(['e1:1', 'missing', 'e1:1'])).toBe(1);
    expect(await store.byPage('https://shop.test', '/cart')).toEqual([]);
    expect(await store.forgetSite('https://shop.test')).toBe(1);
    expect((await store.all()).map((t) => t.id)).toEqual(['e2:0']);
  });
});
