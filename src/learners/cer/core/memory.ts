/**
 * CER's memory as the registry reaches it: its experience buffer, exported
 * as the archive's top-level `experiences` (the field exports had before
 * the registry), imported with ExperienceEntrySchema, forgotten and counted
 * per site (the Memory tab's site table), and shared with a team as `experiences` documents.
 */
import type { LearnerMemory, OwnStore, PreparedLearnerImport } from '../../../core/learning/learner-definition.ts';
import type { ExperienceStore } from './experience-store.ts';
import { sitesOf } from '../../../core/learning/memory-sites.ts';
import { ExperienceEntrySchema, type ExperienceEntry } from './experience.ts';
import { EXPERIENCES } from './stores.ts';

export const EXPERIENCES_STORE = EXPERIENCES.name;

function prepareEntries(data: unknown): PreparedLearnerImport {
  if (!Array.isArray(data)) return { records: [], rows: [], rejected: ['experiences: not a list'] };
  const rows: ExperienceEntry[] = [];
  const rejected: string[] = [];
  data.forEach((raw, i) => {
    const parsed = ExperienceEntrySchema.safeParse(raw);
    if (parsed.success) rows.push(parsed.data);
    else rejected.push(`experience #${i} is invalid: ${parsed.error.issues[0]?.message ?? ''}`);
  });
  return { records: [], rows, rejected };
}

export function experiencesMemory(store: ExperienceStore): LearnerMemory {
  const ownStore: OwnStore = {
    name: EXPERIENCES_STORE,
    write: async (rows) => {
      // Rows come validated (prepareImport).
      if (rows.length > 0) await store.putMany([...(rows as readonly ExperienceEntry[])]);
    },
    delete: (keys) => store.delete([...keys]),
    address(row) {
      const parsed = ExperienceEntrySchema.safeParse(row);
      if (!parsed.success) return null;
      const e = parsed.data;
      return { origin: e.origin, key: e.id, taughtAt: e.provenance.updatedAt, episodeId: e.provenance.episodeIds.at(-1) ?? null };
    },
  };
  return {
    forgetSite: (origin) => store.forgetSite(origin),
    export: () => store.all(),
    prepareImport: prepareEntries,
    // Each entry is one site's (dynamics of a page type, a skill): the Memory tab counts them per site.
    sites: async () => sitesOf((await store.all()).map((e) => ({ origin: e.origin, updatedAt: e.provenance.updatedAt }))),
    ownStore,
  };
}
