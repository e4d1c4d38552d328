/** EvoTest's registry entry (UI-safe: no learner code; the factory is in factory.ts). */
import { learnerSettings, type LearnerDefinition } from '../../core/learning/learner-definition.ts';
import { EVOTEST_FORMER_FIELDS, EvoCandidateEvidenceSchema, EvoPlanSchema, EvoStepEvidenceSchema } from './core/episode-plan.ts';
import { DEFAULT_EVOTEST_SETTINGS, EVOTEST_ID, EvotestSettingsSchema, type EvotestSettings } from './core/settings.ts';
import { EVOTEST_ACTIONS } from './core/actions.ts';

export { EVOTEST_ID } from './core/settings.ts';

export const evotestDefinition: LearnerDefinition<EvotestSettings> = {
  id: EVOTEST_ID,
  label: 'EvoTest',
  order: 40,
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

/** What the registry reads (src/core/learning/registry/registry.ts globs every learner's definition.ts). */
export { evotestDefinition as definition };
