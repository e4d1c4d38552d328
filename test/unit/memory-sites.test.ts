/** The Memory tab's site table from every learner's memory (memory-sites.ts): no learner named. */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { memorySites, sitesOf } from '../../src/core/learning/memory-sites.ts';
import { LearnerData } from '../../src/core/learning/learner-data.ts';
import { GLOBAL_ORIGIN } from '../../src/core/learning/learner-data-store.ts';
import { InMemoryLearnerDataStore } from '../../src/core/learning/in-memory/in-memory-learner-data-store.ts';

const site = (origin: string, items: number, lastUpdated: number) => ({ origin, items, lastUpdated });

describe('memory sites', () => {
  it('sums the items per site over the learners, keeps the newest update, newest first, and leaves out empty sites', async () => {
    const sites = await memorySites([
      { memory: { sites: async () => [site('https://a.test', 3, 10), site('https://b.test', 2, 40)] } },
      { memory: {} },
      { memory: { sites: async () => [site('https://a.test', 4, 50), site('https://c.test', 0, 99)] } },
    ]);
    // a: 3 + 4 = 7 items, newest 50; b: 2 items at 40; c has none.
    expect(sites).toEqual([site('https://a.test', 7, 50), site('https://b.test', 2, 40)]);
  });

  it('orders sites updated at the same time by origin', async () => {
    expect(await memorySites([{ memory: { sites: async () => [site('https://z.test', 1, 5), site('https://a.test', 1, 5)] } }]))
      .toEqual([site('https://a.test', 1, 5), site('https://z.test', 1, 5)]);
  });

  it('sitesOf counts items per origin with the newest update, and leaves out what belongs to no site', () => {
    expect(sitesOf([
      { origin: 'https://a.test', updatedAt: 20 }, { origin: GLOBAL_ORIGIN, updatedAt: 99 },
      { origin: 'https://a.test', updatedAt: 5 }, { origin: 'https://b.test', updatedAt: 7 },
    ])).toEqual([site('https://a.test', 2, 20), site('https://b.test', 1, 7)]);
    expect(sitesOf([])).toEqual([]);
  });

  it('a learner keeping learnerData records reports their sites (valid records only, none for the global origin)', async () => {
    const store = new InMemoryLearnerDataStore();
    let now = 100;
    const data = new LearnerData(store, 'tally', z.strictObject({ n: z.number() }), { now: () => now });
    await data.put('https://a.test', 'k1', { n: 1 });
    now = 300;
    await data.put('https://a.test', 'k2', { n: 2 });
    await data.put(GLOBAL_ORIGIN, 'prompt', { n: 3 });
    now = 200;
    await data.put('https://b.test', 'k1', { n: 4 });
    // A record an older version wrote that no longer parses is not an item the tab can show.
    await store.put({ learnerId: 'tally', origin: 'https://c.test', key: 'old', value: { n: 'x' }, updatedAt: 400 });
    expect(await data.memory().sites()).toEqual([site('https://a.test', 2, 300), site('https://b.test', 1, 200)]);
  });
});

