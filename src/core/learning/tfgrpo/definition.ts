/** Training-Free GRPO's registry entry. */
import { learnerSettings, type LearnerDefinition, type LearnerPorts } from '../learner-definition.ts';
import { TfgrpoEvidenceSchema } from './evidence.ts';
import { NEEDS_MODEL, TfgrpoLearner } from './tfgrpo-learner.ts';
import { DEFAULT_TFGRPO, TfgrpoSettingsSchema, type TfgrpoSettings } from './tfgrpo-settings.ts';
import { InMemoryTfgrpoStore, type TfgrpoStore } from './tfgrpo-store.ts';

/**
 * TODO [2026-11-24]: the generic per-learner store (LearnerDataStore) is
 * landing on main; until then each set of stores (one per benchmark task, one
 * per extension run) gets its own in-memory library, keyed on the set's JitRL
 * store so every learner built from the same set shares it.
 */
const stores = new WeakMap<object, TfgrpoStore>();
export function tfgrpoStoreOf(ports: LearnerPorts): TfgrpoStore {
  let store = stores.get(ports.stores.memory);
  if (!store) {
    store = new InMemoryTfgrpoStore();
    stores.set(ports.stores.memory, store);
  }
  return store;
}

export const tfgrpoDefinition: LearnerDefinition<TfgrpoSettings> = {
  id: 'tfgrpo',
  label: 'Training-Free GRPO',
  settings: { schema: TfgrpoSettingsSchema, defaults: DEFAULT_TFGRPO, read: (s) => learnerSettings(tfgrpoDefinition, s) },
  enabled: (s) => learnerSettings(tfgrpoDefinition, s).enabled,
  needsModel: { level: 'optional', description: NEEDS_MODEL },
  evidenceSchema: TfgrpoEvidenceSchema,
  create: (ports) => new TfgrpoLearner({
    store: tfgrpoStoreOf(ports),
    settings: () => learnerSettings(tfgrpoDefinition, ports.settings()),
    model: ports.model,
    clock: ports.clock,
  }),
  memory: (ports) => ({ forgetSite: (origin) => tfgrpoStoreOf(ports).forgetSite(origin) }),
};
