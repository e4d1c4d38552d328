/** Builds JitRL from ports. */
import { learnerSettings, type LearnerFactory } from '../../core/learning/learner-definition.ts';
import { jitrlDefinition } from './definition.ts';
import { JitrlLearner } from './core/jitrl-learner.ts';
import { transitionsMemory } from './core/memory.ts';
import { TRANSITIONS } from './core/stores.ts';
import { ranTransitions } from './core/procedures.ts';
import { ABLATION_ROWS, LEAVE_ONE_OUT_ROWS } from './core/ablation.ts';
import { jitrlEvidenceText } from './core/evidence-text.ts';

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
  procedures: (ports) => ranTransitions(ports.stores.declared(TRANSITIONS)),
  ablation: [...ABLATION_ROWS, ...LEAVE_ONE_OUT_ROWS],
  evidenceText: jitrlEvidenceText,
};

/** What the registry reads (registry-factories.ts globs every learner's factory.ts). */
export { jitrlFactory as factory };
