/** Builds Training-Free GRPO from ports. */
import { learnerSettings, type LearnerFactory, type LearnerPorts } from '../learner-definition.ts';
import { tfgrpoDefinition } from './definition.ts';
import { TfgrpoLearner } from './tfgrpo-learner.ts';
import { LearnerDataTfgrpoStore } from './learner-data-tfgrpo-store.ts';

/** The learner's state lives in the generic per-learner store, under its id. */
export const tfgrpoStoreOf = (ports: LearnerPorts): LearnerDataTfgrpoStore =>
  new LearnerDataTfgrpoStore(ports.stores.learnerData, 'tfgrpo', ports.clock);

export const tfgrpoFactory: LearnerFactory = {
  create: (ports) => new TfgrpoLearner({
    store: tfgrpoStoreOf(ports),
    settings: () => learnerSettings(tfgrpoDefinition, ports.settings()),
    model: ports.model,
    clock: ports.clock,
  }),
  // Forget, export, import and list go through the generic store's records (library, revisions, open groups).
  memory: (ports) => tfgrpoStoreOf(ports).data.memory(),
};
