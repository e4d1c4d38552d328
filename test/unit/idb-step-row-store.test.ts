import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { IdbStepRowStore, EpisodeWriteError } from '../../src/adapters/idb/idb-step-row-store.ts';
import { openApprenticeDb } from '../../src/adapters/idb/open-database.ts';
import type { StepRow } from '../../src/core/stores/step-rows.ts';
import type { Logger } from '../../src/core/ports.ts';

function transition(episodeId: string, stepIndex: number, over: Partial<StepRow> = {}): StepRow {
  return {
    id: `${episodeId}:${stepIndex}`,
    origin: 'https://shop.example',
    regUrl: '/products/{slug}',
    effectiveState: [],
    stateTokens: [],
    task: 'buy a blue shirt',
    taskTokens: ['buy', 'blue', 'shirt'],
    action: `click(<button "Step ${stepIndex}">)`,
    reward: 1,
    rewardSource: 'person',
    futureRewards: [1],
    episodeId,
    stepIndex,
    createdAt: 1000 + stepIndex,
    updatedAt: 2000,
    ...over,
  };
}

async function freshStore(logger?: Logger) {
  const factory = new IDBFactory();
  return { factory, store: await IdbStepRowStore.open(logger ? { factory, logger } : { factory }) };
}

describe('IdbStepRowStore', () => {
  it('keeps transitions across close and reopen', async () => {
    const { factory, store } = await freshStore();
    await store.putEpisode('e1', [transition('e1', 0), transition('e1', 1)]);
    store.close();
    const reopened = await IdbStepRowStore.open({ factory });
    expect(await reopened.count()).toBe(2);
    expect((await reopened.all()).map((t) => t.id)).toEqual(['e1:0', 'e1:1']);
    expect(await reopened.byPage('https://shop.example', '/products/{slug}')).toEqual([transition('e1', 1), transition('e1', 0)]);
    reopened.close();
  });

  it('reads one page type newest first, bounded by the limit', async () => {
    const { store } = await freshStore();
    // Interleave pages, sites and times so order can only come from the index.
    await store.putEpisode('a', [
      transition('a', 0, { createdAt: 50 }),
      transition('a', 1, { createdAt: 10, regUrl: '/cart' }),
      transition('a', 2, { createdAt: 30 }),
    ]);
    await store.putEpisode('b', [
      transition('b', 0, { createdAt: 40 }),
      transition('b', 1, { createdAt: 60, origin: 'https://other.example' }),
      transition('b', 2, { createdAt: 20 }),
    ]);
    const page = await store.byPage('https://shop.example', '/products/{slug}');
    expect(page.map((t) => t.id)).toEqual(['a:0', 'b:0', 'a:2', 'b:2']);
    expect((await store.byPage('https://shop.example', '/products/{slug}', 2)).map((t) => t.id)).toEqual(['a:0', 'b:0']);
    expect(await store.byPage('https://shop.example', '/products/{slug}', 0)).toEqual([]);
    expect((await store.byPage('https://shop.example', '/cart')).map((t) => t.id)).toEqual(['a:1']);
    expect(await store.byPage('https://shop.example', '/products')).toEqual([]);
    expect((await store.byPage('https://other.example', '/products/{slug}')).map((t) => t.id)).toEqual(['b:1']);
  });

  it('cuts at the limit in exactly the order of a full newest-first read, ties included', async () => {
    const { store } = await freshStore();
    // 40 rows over 8 timestamps: many ties at every cut point.
    const rows = Array.from({ length: 40 }, (_, i) => transition(`ep${i % 5}`, i, { createdAt: (i * 7) % 8 }));
    for (let e = 0; e < 5; e++) await store.putEpisode(`ep${e}`, rows.filter((t) => t.episodeId === `ep${e}`));
    const expected = [...rows].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1)).map((t) => t.id);
    expect((await store.byPage('https://shop.example', '/products/{slug}')).map((t) => t.id)).toEqual(expected);
    for (const limit of [1, 2, 5, 7, 13, 39, 40, 41]) {
      expect((await store.byPage('https://shop.example', '/products/{slug}', limit)).map((t) => t.id)).toEqual(expected.slice(0, limit));
    }
  });

  it('replaces an episode’s earlier rows on rewrite', async () => {
    const { store } = await freshStore();
    await store.putEpisode('e', [transition('e', 0), transition('e', 1), transition('e', 2)]);
    await store.putEpisode('e', [transition('e', 0, { reward: -1 }), transition('e', 1, { reward: 2 })]);
    const rows = await store.all();
    expect(rows.map((t) => [t.id, t.reward])).toEqual([['e:0', -1], ['e:1', 2]]);
  });

  it('writes an episode all or nothing: a failing put rolls back the deletes too', async () => {
    const { store } = await freshStore();
    await store.putEpisode('e', [transition('e', 0), transition('e', 1), transition('e', 2)]);
    // A function cannot be structured-cloned: the third put throws inside the transaction.
    const bad = { ...transition('e', 2), effectiveState: [(() => 1) as unknown as string] };
    await expect(store.putEpisode('e', [transition('e', 0, { reward: 9 }), transition('e', 1, { reward: 9 }), bad]))
      .rejects.toBeInstanceOf(EpisodeWriteError);
    const rows = await store.all();
    expect(rows.map((t) => [t.id, t.reward])).toEqual([['e:0', 1], ['e:1', 1], ['e:2', 1]]);

    // A fresh episode that fails writes nothing at all.
    await expect(store.putEpisode('f', [transition('f', 0), { ...transition('f', 1), task: Symbol('x') as unknown as string }]))
      .rejects.toBeInstanceOf(EpisodeWriteError);
    expect(await store.count()).toBe(3);
  });

  it('rejects rows of another episode and duplicate ids before writing', async () => {
    const { store } = await freshStore();
    await expect(store.putEpisode('e', [transition('x', 0)])).rejects.toThrow('belongs to episode x');
    await expect(store.putEpisode('e', [transition('e', 0), transition('e', 0)])).rejects.toThrow('duplicate step row id e:0');
    expect(await store.count()).toBe(0);
  });

  it('skips and counts corrupt rows without failing', async () => {
    const warnings: string[] = [];
    const logger: Logger = { info: () => {}, warn: (m) => warnings.push(m), error: () => {} };
    const { factory, store } = await freshStore(logger);
    await store.putEpisode('e', [transition('e', 0, { createdAt: 1 }), transition('e', 1, { createdAt: 3 })]);
    store.close();
    // Simulate a row damaged by an older build: right index keys, wrong shape.
    const db = await openApprenticeDb({ factory });
    const broken = { ...transition('e', 2, { createdAt: 2 }), reward: 'lots' } as unknown as StepRow;
    await db.put('transitions', broken);
    db.close();

    const reopened = await IdbStepRowStore.open({ factory, logger });
    expect((await reopened.byPage('https://shop.example', '/products/{slug}')).map((t) => t.id)).toEqual(['e:1', 'e:0']);
    expect(reopened.corruptRowsSkipped).toBe(1);
    expect((await reopened.all()).map((t) => t.id)).toEqual(['e:0', 'e:1']);
    expect(reopened.corruptRowsSkipped).toBe(2);
    expect(await reopened.count()).toBe(3);
    expect(warnings).toEqual(['skipped a corrupt step row', 'skipped a corrupt step row']);
    // With a limit the corrupt row does not use up a slot, and is counted once.
    expect((await reopened.byPage('https://shop.example', '/products/{slug}', 2)).map((t) => t.id)).toEqual(['e:1', 'e:0']);
    expect(reopened.corruptRowsSkipped).toBe(3);
    expect((await reopened.byPage('https://shop.example', '/products/{slug}', 1)).map((t) => t.id)).toEqual(['e:1']);
  });

  it('browses a site newest first with query, offset and limit', async () => {
    const { store } = await freshStore();
    await store.putEpisode('a', [
      transition('a', 0, { createdAt: 1, task: 'find the red hat' }),
      transition('a', 1, { createdAt: 2, regUrl: '/search?q={value}' }),
      transition('a', 2, { createdAt: 3, action: 'fill(<textbox "Search">, "RED")' }),
      transition('a', 3, { createdAt: 4, origin: 'https://other.example', task: 'red' }),
    ]);
    expect((await store.bySite('https://shop.example')).map((t) => t.id)).toEqual(['a:2', 'a:1', 'a:0']);
    expect((await store.bySite('https://shop.example', { query: 'Red' })).map((t) => t.id)).toEqual(['a:2', 'a:0']);
    expect((await store.bySite('https://shop.example', { query: 'search' })).map((t) => t.id)).toEqual(['a:2', 'a:1']);
    expect((await store.bySite('https://shop.example', { limit: 1, offset: 1 })).map((t) => t.id)).toEqual(['a:1']);
    expect((await store.bySite('https://shop.example', { query: 'red', offset: 1 })).map((t) => t.id)).toEqual(['a:0']);
  });

  it('summarizes sites and forgets one site', async () => {
    const { store } = await freshStore();
    await store.putEpisode('a', [
      transition('a', 0, { createdAt: 1, updatedAt: 100 }),
      transition('a', 1, { createdAt: 2, updatedAt: 100, regUrl: '/cart' }),
      transition('a', 2, { createdAt: 3, updatedAt: 300 }),
    ]);
    await store.putEpisode('b', [transition('b', 0, { createdAt: 5, updatedAt: 500, origin: 'https://other.example' })]);
    expect(await store.sites()).toEqual([
      { origin: 'https://other.example', rows: 1, pages: 1, lastUpdated: 500 },
      { origin: 'https://shop.example', rows: 3, pages: 2, lastUpdated: 300 },
    ]);
    expect(await store.forgetSite('https://shop.example')).toBe(3);
    expect(await store.forgetSite('https://shop.example')).toBe(0);
    expect((await store.all()).map((t) => t.id)).toEqual(['b:0']);
    expect(await store.sites()).toEqual([{ origin: 'https://other.example', rows: 1, pages: 1, lastUpdated: 500 }]);
  });

  it('deletes transitions by id and reports how many existed', async () => {
    const { store } = await freshStore();
    await store.putEpisode('a', [transition('a', 0), transition('a', 1), transition('a', 2)]);
    expect(await store.deleteRows(['a:1', 'a:1', 'nope'])).toBe(1);
    expect((await store.all()).map((t) => t.id)).toEqual(['a:0', 'a:2']);
  });
});
