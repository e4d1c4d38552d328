/** Builds Meta-TTL from ports. */
import { learnerSettings, type LearnerFactory } from '../../core/learning/learner-definition.ts';
import { METATTL_ID, metattlDefinition } from './definition.ts';
import { LearnerDataGuideStore } from './core/guide-store.ts';
import { MetaTtlLearner } from './core/metattl-learner.ts';
import { METATTL_ACTIONS } from './core/actions.ts';
import { checkedHandlers } from '../../core/learning/learner-actions.ts';

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

/** What the registry reads (registry-factories.ts globs every learner's factory.ts). */
export { metattlFactory as factory };
