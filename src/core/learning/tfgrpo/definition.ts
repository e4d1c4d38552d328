/** Training-Free GRPO's registry entry. */
import { learnerSettings, type LearnerDefinition, type LearnerPorts } from '../learner-definition.ts';
import { TfgrpoEvidenceSchema } from './evidence.ts';
import { NEEDS_MODEL, TfgrpoLearner } from './tfgrpo-learner.ts';
import { DEFAULT_TFGRPO, TfgrpoSettingsSchema, type TfgrpoSettings } from './tfgrpo-settings.ts';
import { LearnerDataTfgrpoStore } from './learner-data-tfgrpo-store.ts';

/** The learner's state lives in the generic per-learner store, under its id. */
export const tfgrpoStoreOf = (ports: LearnerPorts): LearnerDataTfgrpoStore =>
  new LearnerDataTfgrpoStore(ports.stores.learnerData, 'tfgrpo', ports.clock);

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
  // Forget, export, import and list go through the generic store's records (library, revisions, open groups).
  memory: (ports) => tfgrpoStoreOf(ports).data.memory(),
};
