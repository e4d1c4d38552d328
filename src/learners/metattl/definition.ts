/** Meta-TTL's registry entry (UI-safe: no learner code; the factory is in factory.ts). */
import { learnerSettings, type LearnerDefinition } from '../../core/learning/learner-definition.ts';
import { DEFAULT_METATTL, MetaTtlSettingsSchema, type MetaTtlSettings } from './core/metattl-settings.ts';
import { METATTL_ACTIONS } from './core/actions.ts';
import { METATTL_ID, MetaTtlPlanSchema, NEEDS_MODEL } from './core/plan.ts';

export { METATTL_ID, NEEDS_MODEL, MetaTtlPlanSchema, type MetaTtlPlan } from './core/plan.ts';

export const metattlDefinition: LearnerDefinition<MetaTtlSettings> = {
  id: METATTL_ID,
  label: 'Meta-TTL',
  order: 50,
  settings: { schema: MetaTtlSettingsSchema, defaults: DEFAULT_METATTL, read: (s) => learnerSettings(metattlDefinition, s) },
  enabled: (s) => learnerSettings(metattlDefinition, s).enabled,
  needsModel: { level: 'required', description: NEEDS_MODEL },
  planSchema: MetaTtlPlanSchema,
  keepsMemory: true,
  actions: METATTL_ACTIONS,
};

/** What the registry reads (src/core/learning/registry/registry.ts globs every learner's definition.ts). */
export { metattlDefinition as definition };
