/** CER's buffer reports its sites for the Memory tab's table (memory-sites.ts): one item per entry, newest update per site. */
import { describe, expect, it } from 'vitest';
import { InMemoryExperienceStore } from '../core/experience-store.ts';
import { experiencesMemory } from '../core/memory.ts';
import { memorySites } from '../../../core/learning/memory-sites.ts';
import { dynamics, ORIGIN, provenance, skill } from './cer-helpers.ts';

const OTHER = 'https://other.example';

describe('CER memory sites', () => {
  it('counts its entries per site with the newest update; an empty buffer reports none', async () => {
    const store = new InMemoryExperienceStore();
    const memory = experiencesMemory(store);
    expect(await memory.sites!()).toEqual([]);
    await store.putMany([
      dynamics('d1', { provenance: provenance({ updatedAt: 30 }) }),
      skill('s1', { provenance: provenance({ updatedAt: 70 }) }),
      skill('s2', { origin: OTHER, name: 'Elsewhere {x}', provenance: provenance({ updatedAt: 50 }) }),
    ]);
    // ORIGIN: d1 and s1 = 2 items, newest 70; OTHER: s2 = 1 item at 50.
    const sites = await memory.sites!();
    expect([...sites].sort((a, b) => a.origin.localeCompare(b.origin))).toEqual([
      { origin: ORIGIN, items: 2, lastUpdated: 70 },
      { origin: OTHER, items: 1, lastUpdated: 50 },
    ].sort((a, b) => a.origin.localeCompare(b.origin)));
    // Summed with another learner's count on the same site in the tab's table.
    expect(await memorySites([{ memory }, { memory: { sites: async () => [{ origin: OTHER, items: 4, lastUpdated: 90 }] } }])).toEqual([
      { origin: OTHER, items: 5, lastUpdated: 90 },
      { origin: ORIGIN, items: 2, lastUpdated: 70 },
    ]);
    await memory.forgetSite(ORIGIN);
    expect(await memory.sites!()).toEqual([{ origin: OTHER, items: 1, lastUpdated: 50 }]);
  });
});
