/** Builds CER from ports. */
import { learnerSettings, type LearnerFactory } from '../learner-definition.ts';
import { cerDefinition } from './definition.ts';
import { CerLearner } from './cer-learner.ts';
import { experiencesMemory } from './memory.ts';
import { CER_ACTIONS } from './actions.ts';
import { checkedHandlers } from '../learner-actions.ts';
import { skillTemplates } from './procedures.ts';

export const cerFactory: LearnerFactory = {
  create: (ports) => new CerLearner({ store: ports.stores.experiences, settings: () => learnerSettings(cerDefinition, ports.settings()), model: ports.model, clock: ports.clock }),
  memory: (ports) => experiencesMemory(ports.stores.experiences),
  actionHandlers: (ports) => checkedHandlers(CER_ACTIONS, { list: ({ origin }) => ports.stores.experiences.list(origin) }),
  procedures: (ports) => skillTemplates(ports.stores.experiences),
};
