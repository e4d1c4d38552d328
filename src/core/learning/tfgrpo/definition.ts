/** Training-Free GRPO's registry entry (UI-safe: no learner code; the factory is in factory.ts). */
import { learnerSettings, type LearnerDefinition } from '../learner-definition.ts';
import { TfgrpoEvidenceSchema } from './evidence.ts';
import { TFGRPO_ACTIONS } from './actions.ts';
import { DEFAULT_TFGRPO, TfgrpoSettingsSchema, type TfgrpoSettings } from './tfgrpo-settings.ts';

export const NEEDS_MODEL =
  'Training-Free GRPO learns its experiences through a model (summaries, critique, library update). Without one it only keeps page-type contrasts read off the attempts (rule hints), and does nothing when those are switched off.';

export const tfgrpoDefinition: LearnerDefinition<TfgrpoSettings> = {
  id: 'tfgrpo',
  label: 'Training-Free GRPO',
  settings: { schema: TfgrpoSettingsSchema, defaults: DEFAULT_TFGRPO, read: (s) => learnerSettings(tfgrpoDefinition, s) },
  enabled: (s) => learnerSettings(tfgrpoDefinition, s).enabled,
  needsModel: { level: 'optional', description: NEEDS_MODEL },
  evidenceSchema: TfgrpoEvidenceSchema,
  keepsMemory: true,
  actions: TFGRPO_ACTIONS,
};
