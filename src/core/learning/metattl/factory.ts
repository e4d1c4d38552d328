/** Builds Meta-TTL from ports. */
import { learnerSettings, type LearnerFactory } from '../learner-definition.ts';
import { METATTL_ID, metattlDefinition } from './definition.ts';
import { LearnerDataGuideStore } from './guide-store.ts';
import { MetaTtlLearner } from './metattl-learner.ts';
import { METATTL_ACTIONS } from './actions.ts';
import { checkedHandlers } from '../learner-actions.ts';

export const metattlFactory: LearnerFactory = {
  create: (ports) => new MetaTtlLearner({
    store: new LearnerDataGuideStore(ports.stores.learnerData, METATTL_ID, ports.clock),
    model: ports.model,
    settings: () => learnerSettings(metattlDefinition, ports.settings()),
    clock: ports.clock,
  }),
  // Forget a site, export, import and the Memory tab's list, through the generic learner store.
  memory: (ports) => new LearnerDataGuideStore(ports.stores.learnerData, METATTL_ID, ports.clock).data.memory(),
  actionHandlers: (_ports, built) => {
    if (!(built instanceof MetaTtlLearner)) throw new Error('Meta-TTL\'s actions need the learner its factory built');
    const guides = built.adaptation;
    return checkedHandlers(METATTL_ACTIONS, {
      guide: async ({ origin, task }) => ({ record: await guides.recordFor(origin, task), inactiveReason: guides.inactiveReason() }),
      editGuide: async ({ origin, task, text }) => ({ record: await guides.edit(origin, task, text) }),
      resetGuide: async ({ origin, task }) => ({ record: await guides.reset(origin, task) }),
    });
  },
};
