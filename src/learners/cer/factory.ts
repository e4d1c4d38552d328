/** Builds CER from ports. */
import { learnerSettings, type LearnerFactory, type LearnerPorts } from '../../core/learning/learner-definition.ts';
import { experienceStoreOn } from './core/experience-store.ts';
import { cerDefinition } from './definition.ts';
import { CerLearner } from './core/cer-learner.ts';
import { experiencesMemory } from './core/memory.ts';
import { CER_ACTIONS } from './core/actions.ts';
import { checkedHandlers } from '../../core/learning/learner-actions.ts';
import { skillTemplates } from './core/procedures.ts';
import { EXPERIENCES } from './core/stores.ts';

/** The buffer, read through CER's schema: the store keeps rows, CER validates them. */
const buffer = (ports: LearnerPorts) => experienceStoreOn(ports.stores.declared(EXPERIENCES));

export const cerFactory: LearnerFactory = {
  create: (ports) => new CerLearner({ store: buffer(ports), settings: () => learnerSettings(cerDefinition, ports.settings()), model: ports.model, clock: ports.clock }),
  memory: (ports) => experiencesMemory(buffer(ports)),
  actionHandlers: (ports) => checkedHandlers(CER_ACTIONS, { list: ({ origin }) => buffer(ports).list(origin) }),
  procedures: (ports) => skillTemplates(buffer(ports)),
};

/** What the registry reads (registry-factories.ts globs every learner's factory.ts). */
export { cerFactory as factory };
