/**
 * JitRL's memory as the registry reaches it: its transitions store, exported
 * as the archive's top-level `transitions` (the field exports had before the
 * registry), imported with TransitionSchema, forgotten per site, and shared
 * with a team as `transitions` documents.
 */
import type { MemoryStore } from './transition.ts';
import { TransitionSchema, type Transition } from './transition.ts';
import type { LearnerMemory, OwnStore, PreparedLearnerImport } from '../../../core/learning/learner-definition.ts';

import { TRANSITIONS } from './stores.ts';

export const TRANSITIONS_STORE = TRANSITIONS.name;

function prepareTransitions(data: unknown): PreparedLearnerImport {
  if (!Array.isArray(data)) return { records: [], rows: [], rejected: ['transitions: not a list'] };
  const rows: Transition[] = [];
  const rejected: string[] = [];
  data.forEach((raw, i) => {
    const parsed = TransitionSchema.safeParse(raw);
    if (parsed.success) rows.push(parsed.data);
    else rejected.push(`transition #${i} is invalid: ${parsed.error.issues[0]?.message ?? ''}`);
  });
  return { records: [], rows, rejected };
}

export function transitionsMemory(store: MemoryStore): LearnerMemory {
  const ownStore: OwnStore = {
    name: TRANSITIONS_STORE,
    async write(rows) {
      // Rows come validated (prepareImport); they replace their episode's earlier rows, as in IndexedDB.
      const byEpisode = new Map<string, Transition[]>();
      for (const t of rows as readonly Transition[]) byEpisode.set(t.episodeId, [...(byEpisode.get(t.episodeId) ?? []), t]);
      for (const [episodeId, transitions] of byEpisode) await store.putEpisode(episodeId, transitions);
    },
    delete: (keys) => store.deleteRows([...keys]),
    address(row) {
      const parsed = TransitionSchema.safeParse(row);
      if (!parsed.success) return null;
      const t = parsed.data;
      return { origin: t.origin, key: t.id, taughtAt: t.updatedAt, episodeId: t.episodeId };
    },
    // putEpisode replaces an episode's rows: its transitions travel together.
    writeGroup: (row) => {
      const episodeId = typeof row === 'object' && row !== null ? (row as { episodeId?: unknown }).episodeId : undefined;
      return typeof episodeId === 'string' ? episodeId : null;
    },
  };
  return {
    forgetSite: (origin) => store.forgetSite(origin),
    sites: async () => (await store.sites()).map((s) => ({ origin: s.origin, items: s.rows, lastUpdated: s.lastUpdated })),
    export: () => store.all(),
    prepareImport: prepareTransitions,
    ownStore,
  };
}
