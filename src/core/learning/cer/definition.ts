/** CER's registry entry. */
import { CerSettingsSchema, DEFAULT_SETTINGS, type CerSettings } from '../../settings.ts';
import type { LearnerDefinition } from '../learner-definition.ts';
import { CerLearner } from './cer-learner.ts';

export const cerDefinition: LearnerDefinition<CerSettings> = {
  id: 'cer',
  label: 'CER',
  settings: { schema: CerSettingsSchema, defaults: DEFAULT_SETTINGS.cer, read: (s) => s.cer },
  enabled: (s) => s.cer.enabled,
  needsModel: {
    level: 'optional',
    description: 'Distils and retrieves with the configured model; without one it uses its rule-based distiller and lexical retrieval.',
  },
  create: (ports) => new CerLearner({ store: ports.stores.experiences, settings: () => ports.settings().cer, model: ports.model, clock: ports.clock }),
  memory: (ports) => ({ forgetSite: (origin) => ports.stores.experiences.forgetSite(origin) }),
};
