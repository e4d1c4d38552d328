/** Builds JitRL from ports. */
import { learnerSettings, type LearnerFactory } from '../../core/learning/learner-definition.ts';
import { jitrlDefinition } from './definition.ts';
import { JitrlLearner } from './core/jitrl-learner.ts';
import { transitionsMemory } from './core/memory.ts';
import { TRANSITIONS } from './core/stores.ts';
import { ranTransitions } from './core/procedures.ts';
import { ABLATION_ROWS, LEAVE_ONE_OUT_ROWS } from './core/ablation.ts';
import { jitrlEvidenceText } from './core/evidence-text.ts';
import { JITRL_ACTIONS } from './core/actions.ts';
import { checkedHandlers } from '../../core/learning/learner-actions.ts';

export const jitrlFactory: LearnerFactory = {
  create: (ports) =>
    new JitrlLearner({
      store: ports.stores.declared(TRANSITIONS),
      settings: () => learnerSettings(jitrlDefinition, ports.settings()),
      random: ports.random,
      clock: ports.clock,
      // As before the registry: a rejection is stored with the default `reject` reward, not the settings' one.
    }),
  memory: (ports) => transitionsMemory(ports.stores.declared(TRANSITIONS)),
  // The Memory tab's transition browser (ui/transitions-panel.tsx).
  actionHandlers: (ports) => {
    const store = ports.stores.declared(TRANSITIONS);
    return checkedHandlers(JITRL_ACTIONS, {
      list: ({ origin, query, limit, offset }) => store.bySite(origin, { query, limit, offset }),
      site: async ({ origin }) => {
        const s = (await store.sites()).find((x) => x.origin === origin);
        return s ? { transitions: s.rows, pages: s.pages, lastUpdated: s.lastUpdated } : { transitions: 0, pages: 0, lastUpdated: 0 };
      },
      delete: async ({ ids }) => ({ deleted: await store.deleteRows(ids) }),
    });
  },
  procedures: (ports) => ranTransitions(ports.stores.declared(TRANSITIONS)),
  ablation: [...ABLATION_ROWS, ...LEAVE_ONE_OUT_ROWS],
  evidenceText: jitrlEvidenceText,
};

/** What the registry reads (registry-factories.ts globs every learner's factory.ts). */
export { jitrlFactory as factory };
