/** Training-Free GRPO's registry entry (UI-safe: no learner code; the factory is in factory.ts). */
import { learnerSettings, type LearnerDefinition } from '../../core/learning/learner-definition.ts';
import { TfgrpoEvidenceSchema } from './core/evidence.ts';
import { TFGRPO_ACTIONS } from './core/actions.ts';
import { DEFAULT_TFGRPO, NEEDS_MODEL, TfgrpoSettingsSchema, type TfgrpoSettings } from './core/tfgrpo-settings.ts';

export { NEEDS_MODEL } from './core/tfgrpo-settings.ts';

export const tfgrpoDefinition: LearnerDefinition<TfgrpoSettings> = {
  id: 'tfgrpo',
  label: 'Training-Free GRPO',
  order: 30,
  settings: { schema: TfgrpoSettingsSchema, defaults: DEFAULT_TFGRPO, read: (s) => learnerSettings(tfgrpoDefinition, s) },
  enabled: (s) => learnerSettings(tfgrpoDefinition, s).enabled,
  needsModel: { level: 'optional', description: NEEDS_MODEL },
  evidenceSchema: TfgrpoEvidenceSchema,
  keepsMemory: true,
  actions: TFGRPO_ACTIONS,
};

/** What the registry reads (src/core/learning/registry/registry.ts globs every learner's definition.ts). */
export { tfgrpoDefinition as definition };
