import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { IdbEpisodeStore } from '../../src/adapters/idb/idb-episode-store.ts';
import { InMemoryEpisodeStore, type EpisodeStore } from '../../src/core/episode/episode-store.ts';
import type { Episode, EpisodeStatus, StepRecord } from '../../src/core/episode/episode.ts';
import { blankStep } from '../support/step-record.ts';

function step(index: number): StepRecord {
  return blankStep({
    index,
    url: `https://shop.example/products/${index}`,
    regUrl: '/products/{id}',
    chosen: { action: 'click([3])', semantic: 'click(<button "Buy">)', decision: 'auto' },
    decisionLatencyMs: 4,
    startedAt: 100 + index,
  });
}

function episode(id: string, startedAt: number, over: Partial<Episode> = {}): Episode {
  return {
    id,
    origin: 'https://shop.example',
    task: 'buy a shirt',
    startUrl: 'https://shop.example/',
    tabId: 7,
    status: 'success',
    steps: [step(0)],
    answer: null,
    error: null,
    learners: ['jitrl'],
    attempt: 1,
    kind: 'live',
    startedAt,
    endedAt: startedAt + 10,
    ...over,
  };
}

const implementations: [string, () => Promise<EpisodeStore>][] = [
  ['InMemoryEpisodeStore', async () => new InMemoryEpisodeStore()],
  ['IdbEpisodeStore', async () => IdbEpisodeStore.open({ factory: new IDBFactory() })],
];

describe.each(implementations)('%s', (_name, make) => {
  it('puts, replaces and gets an episode, keeping its own copy', async () => {
    const store = await make();
    const e = episode('e1', 1, { status: 'running', endedAt: null });
    await store.put(e);
    e.steps.push(step(1)); // the loop keeps mutating its working copy
    expect((await store.get('e1'))?.steps).toHaveLength(1);
    await store.put(e);
    const back = await store.get('e1');
    expect(back?.steps.map((s) => s.index)).toEqual([0, 1]);
    expect(back).toEqual(e);
    expect(await store.get('nope')).toBeNull();
  });

  it('lists newest first by site, by site and task, or everywhere', async () => {
    const store = await make();
    await store.put(episode('a', 10));
    await store.put(episode('b', 30, { task: 'find a hat' }));
    await store.put(episode('c', 20, { origin: 'https://other.example' }));
    await store.put(episode('d', 40));
    const ids = (es: Episode[]) => es.map((e) => e.id);
    expect(ids(await store.list({ limit: 10 }))).toEqual(['d', 'b', 'c', 'a']);
    expect(ids(await store.list({ origin: null, limit: 2 }))).toEqual(['d', 'b']);
    expect(ids(await store.list({ origin: 'https://shop.example', limit: 10 }))).toEqual(['d', 'b', 'a']);
    expect(ids(await store.list({ origin: 'https://shop.example', task: 'buy a shirt', limit: 10 }))).toEqual(['d', 'a']);
    expect(ids(await store.list({ origin: 'https://shop.example', task: 'buy a shirt', limit: 1 }))).toEqual(['d']);
    expect(ids(await store.list({ task: 'buy a shirt', limit: 10 }))).toEqual(['d', 'c', 'a']);
    expect(ids(await store.list({ limit: 0 }))).toEqual([]);
    expect(ids(await store.all())).toEqual(['a', 'c', 'b', 'd']);
  });

  it('finds unfinished episodes to resume', async () => {
    const store = await make();
    const statuses: EpisodeStatus[] = ['running', 'paused', 'awaiting_approval', 'awaiting_verdict', 'success', 'failure', 'partial', 'stopped', 'error'];
    for (const [i, status] of statuses.entries()) await store.put(episode(status, i, { status }));
    expect((await store.unfinished()).map((e) => e.id)).toEqual(['awaiting_verdict', 'awaiting_approval', 'paused', 'running']);
  });

  it('deletes one episode and forgets a site', async () => {
    const store = await make();
    await store.put(episode('a', 1));
    await store.put(episode('b', 2));
    await store.put(episode('c', 3, { origin: 'https://other.example' }));
    await store.delete('b');
    await store.delete('missing');
    expect((await store.all()).map((e) => e.id)).toEqual(['a', 'c']);
    expect(await store.forgetSite('https://shop.example')).toBe(1);
    expect(await store.forgetSite('https://shop.example')).toBe(0);
    expect((await store.all()).map((e) => e.id)).toEqual(['c']);
  });
});

describe('IdbEpisodeStore', () => {
  it('keeps a checkpoint across close and reopen', async () => {
    const factory = new IDBFactory();
    const store = await IdbEpisodeStore.open({ factory });
    await store.put(episode('e', 5, { status: 'awaiting_approval', endedAt: null, steps: [step(0), step(1)] }));
    store.close();
    const reopened = await IdbEpisodeStore.open({ factory });
    const [resumed] = await reopened.unfinished();
    expect(resumed?.id).toBe('e');
    expect(resumed?.status).toBe('awaiting_approval');
    expect(resumed?.steps.map((s) => s.index)).toEqual([0, 1]);
    reopened.close();
  });

  it('skips and counts a corrupt episode row', async () => {
    const factory = new IDBFactory();
    const store = await IdbEpisodeStore.open({ factory });
    await store.put(episode('good', 1));
    await store.put({ ...episode('bad', 2), steps: 'lost' } as unknown as Episode);
    expect((await store.list({ limit: 10 })).map((e) => e.id)).toEqual(['good']);
    expect(await store.get('bad')).toBeNull();
    expect(store.corruptRowsSkipped).toBe(2);
    expect((await store.all()).map((e) => e.id)).toEqual(['good']);
  });
});
