/** Builds Training-Free GRPO from ports. */
import { learnerSettings, type LearnerFactory, type LearnerPorts } from '../../core/learning/learner-definition.ts';
import { tfgrpoDefinition } from './definition.ts';
import { TfgrpoLearner } from './core/tfgrpo-learner.ts';
import { LearnerDataTfgrpoStore } from './core/learner-data-tfgrpo-store.ts';
import { TFGRPO_ACTIONS } from './core/actions.ts';
import { checkedHandlers } from '../../core/learning/learner-actions.ts';
import type { Learner } from '../../core/learning/learner.ts';

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
  actionHandlers: (_ports, built) => {
    const learner = asTfgrpo(built);
    return checkedHandlers(TFGRPO_ACTIONS, {
      library: ({ origin }) => learner.view(origin),
      edit: async ({ origin, id, text }) => ({ ok: await learner.edit(origin, id, text) }),
      delete: async ({ origin, ids }) => ({ deleted: await learner.remove(origin, ids) }),
      undo: async ({ origin }) => ({ undone: (await learner.undoLastUpdate(origin)) !== null }),
    });
  },
};

function asTfgrpo(learner: Learner): TfgrpoLearner {
  if (!(learner instanceof TfgrpoLearner)) throw new Error('Training-Free GRPO\'s actions need the learner its factory built');
  return learner;
}

/** What the registry reads (registry-factories.ts globs every learner's factory.ts). */
export { tfgrpoFactory as factory };
