/** Builds CER from ports. */
import { learnerSettings, type LearnerFactory, type LearnerPorts } from '../learner-definition.ts';
import { experienceStoreOn } from './experience-store.ts';
import { cerDefinition } from './definition.ts';
import { CerLearner } from './cer-learner.ts';
import { experiencesMemory } from './memory.ts';
import { CER_ACTIONS } from './actions.ts';
import { checkedHandlers } from '../learner-actions.ts';
import { skillTemplates } from './procedures.ts';

/** The buffer, read through CER's schema: the store keeps rows, CER validates them. */
const buffer = (ports: LearnerPorts) => experienceStoreOn(ports.stores.experiences);

export const cerFactory: LearnerFactory = {
  create: (ports) => new CerLearner({ store: buffer(ports), settings: () => learnerSettings(cerDefinition, ports.settings()), model: ports.model, clock: ports.clock }),
  memory: (ports) => experiencesMemory(buffer(ports)),
  actionHandlers: (ports) => checkedHandlers(CER_ACTIONS, { list: ({ origin }) => buffer(ports).list(origin) }),
  procedures: (ports) => skillTemplates(buffer(ports)),
};
