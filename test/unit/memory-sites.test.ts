/** The Memory tab's site table from every learner's memory (memory-sites.ts): no learner named. */
import { describe, expect, it } from 'vitest';
import { memorySites } from '../../src/core/learning/memory-sites.ts';

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
});

