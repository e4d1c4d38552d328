/**
 * The Memory tab's site table, from every learner's memory: a site is listed
 * when some learner remembers something there (`LearnerMemory.sites`), with
 * the items summed over the learners and the newest update among them. No
 * learner is named: the table is whatever the registry's learners report.
 * A learner reports the sites it keeps items of (`sitesOf` counts them);
 * what belongs to no site (a meta-prompt, GLOBAL_ORIGIN) is no site's.
 */
import * as z from 'zod';
import type { LearnerMemory } from './learner-definition.ts';
import { GLOBAL_ORIGIN } from './learner-data-store.ts';

export const MemorySiteSchema = z.strictObject({
  origin: z.string(),
  /** Items remembered there, summed over the learners that report sites. */
  items: z.number().int().nonnegative(),
  lastUpdated: z.number(),
});
export type MemorySite = z.infer<typeof MemorySiteSchema>;

/** Newest first, then by origin, so the order is total. */
export async function memorySites(memories: readonly { memory: Pick<LearnerMemory, 'sites'> }[]): Promise<MemorySite[]> {
  const bySite = new Map<string, MemorySite>();
  for (const { memory } of memories) {
    for (const s of (await memory.sites?.()) ?? []) {
      if (s.items <= 0) continue;
      const seen = bySite.get(s.origin);
      bySite.set(s.origin, seen
        ? { origin: s.origin, items: seen.items + s.items, lastUpdated: Math.max(seen.lastUpdated, s.lastUpdated) }
        : { origin: s.origin, items: s.items, lastUpdated: s.lastUpdated });
    }
  }
  return [...bySite.values()].sort((a, b) => b.lastUpdated - a.lastUpdated || a.origin.localeCompare(b.origin));
}

/** A learner's sites from its items: how many per origin and the newest update; GLOBAL_ORIGIN is left out. */
export function sitesOf(items: readonly { origin: string; updatedAt: number }[]): MemorySite[] {
  const bySite = new Map<string, MemorySite>();
  for (const { origin, updatedAt } of items) {
    if (origin === GLOBAL_ORIGIN) continue;
    const seen = bySite.get(origin);
    bySite.set(origin, { origin, items: (seen?.items ?? 0) + 1, lastUpdated: Math.max(seen?.lastUpdated ?? updatedAt, updatedAt) });
  }
  return [...bySite.values()];
}
