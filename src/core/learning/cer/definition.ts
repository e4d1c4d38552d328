/** CER's registry entry (UI-safe: no learner code; the factory is in factory.ts). */
import { CerSettingsSchema, DEFAULT_SETTINGS, type CerSettings } from '../../settings.ts';
import type { LearnerDefinition } from '../learner-definition.ts';

export const cerDefinition: LearnerDefinition<CerSettings> = {
  id: 'cer',
  label: 'CER',
  settings: { schema: CerSettingsSchema, defaults: DEFAULT_SETTINGS.cer, read: (s) => s.cer },
  enabled: (s) => s.cer.enabled,
  needsModel: {
    level: 'optional',
    description: 'Distils and retrieves with the configured model; without one it uses its rule-based distiller and lexical retrieval.',
  },
  keepsMemory: true,
};
