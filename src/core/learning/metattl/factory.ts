/** Builds Meta-TTL from ports. */
import { learnerSettings, type LearnerFactory } from '../learner-definition.ts';
import { METATTL_ID, metattlDefinition } from './definition.ts';
import { LearnerDataGuideStore } from './guide-store.ts';
import { MetaTtlLearner } from './metattl-learner.ts';

export const metattlFactory: LearnerFactory = {
  create: (ports) => new MetaTtlLearner({
    store: new LearnerDataGuideStore(ports.stores.learnerData, METATTL_ID, ports.clock),
    model: ports.model,
    settings: () => learnerSettings(metattlDefinition, ports.settings()),
    clock: ports.clock,
  }),
  // Forget a site, export, import and the Memory tab's list, through the generic learner store.
  memory: (ports) => new LearnerDataGuideStore(ports.stores.learnerData, METATTL_ID, ports.clock).data.memory(),
};
