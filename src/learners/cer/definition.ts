/** CER's registry entry (UI-safe: no learner code; the factory is in factory.ts). */
import { learnerSettings, type LearnerDefinition } from '../../core/learning/learner-definition.ts';
import { EXPERIENCES } from './core/stores.ts';
import { CerSettingsSchema, DEFAULT_CER, type CerSettings } from './core/settings.ts';
import { CER_ACTIONS } from './core/actions.ts';

export const cerDefinition: LearnerDefinition<CerSettings> = {
  id: 'cer',
  label: 'CER',
  order: 10,
  // Stored as a top-level `cer` group before they moved under `learners`.
  settings: { schema: CerSettingsSchema, defaults: DEFAULT_CER, read: (s) => learnerSettings(cerDefinition, s), legacyKey: 'cer' },
  enabled: (s) => learnerSettings(cerDefinition, s).enabled,
  needsModel: {
    level: 'optional',
    description: 'Distils and retrieves with the configured model; without one it uses its rule-based distiller and lexical retrieval.',
  },
  keepsMemory: true,
  stores: [EXPERIENCES],
  actions: CER_ACTIONS,
};

/** What the registry reads (src/core/learning/registry/registry.ts globs every learner's definition.ts). */
export { cerDefinition as definition };
