/** Meta-TTL's registry entry (UI-safe: no learner code; the factory is in factory.ts). */
import * as z from 'zod';
import { learnerSettings, type LearnerDefinition } from '../learner-definition.ts';
import { DEFAULT_METATTL, MetaTtlSettingsSchema, type MetaTtlSettings } from './metattl-settings.ts';
import { METATTL_ACTIONS } from './actions.ts';

export const METATTL_ID = 'metattl';
export const NEEDS_MODEL = 'Meta-TTL needs a model: its meta-agent rewrites the guide after each attempt. With the offline policy it changes nothing.';

/** The episode's plan: the guide in force when it started (null = none). */
export const MetaTtlPlanSchema = z.strictObject({ key: z.string(), guide: z.string().nullable() });
export type MetaTtlPlan = z.infer<typeof MetaTtlPlanSchema>;

export const metattlDefinition: LearnerDefinition<MetaTtlSettings> = {
  id: METATTL_ID,
  label: 'Meta-TTL',
  settings: { schema: MetaTtlSettingsSchema, defaults: DEFAULT_METATTL, read: (s) => learnerSettings(metattlDefinition, s) },
  enabled: (s) => learnerSettings(metattlDefinition, s).enabled,
  needsModel: { level: 'required', description: NEEDS_MODEL },
  planSchema: MetaTtlPlanSchema,
  keepsMemory: true,
  actions: METATTL_ACTIONS,
};
