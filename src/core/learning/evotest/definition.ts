/** EvoTest's registry entry (UI-safe: no learner code; the factory is in factory.ts). */
import { learnerSettings, type LearnerDefinition } from '../learner-definition.ts';
import { EVOTEST_FORMER_FIELDS, EvoCandidateEvidenceSchema, EvoPlanSchema, EvoStepEvidenceSchema } from './episode-plan.ts';
import { DEFAULT_EVOTEST_SETTINGS, EvotestSettingsSchema, type EvotestSettings } from './settings.ts';
import { EVOTEST_ACTIONS } from './actions.ts';

export const EVOTEST_ID = 'evotest';

export const evotestDefinition: LearnerDefinition<EvotestSettings> = {
  id: EVOTEST_ID,
  label: 'EvoTest',
  settings: { schema: EvotestSettingsSchema, defaults: DEFAULT_EVOTEST_SETTINGS, read: (s) => learnerSettings(evotestDefinition, s) },
  enabled: (s) => learnerSettings(evotestDefinition, s).enabled,
  needsModel: {
    level: 'optional',
    description: 'Evolves each site\'s configuration between attempts. Without a model its evolver is rule-based (hyperparameters, memory and state-abstraction rules); with one, the model also rewrites the guidance and rules.',
  },
  planSchema: EvoPlanSchema,
  evidenceSchema: EvoStepEvidenceSchema,
  candidateEvidenceSchema: EvoCandidateEvidenceSchema,
  formerFields: EVOTEST_FORMER_FIELDS,
  keepsMemory: true,
  actions: EVOTEST_ACTIONS,
};
