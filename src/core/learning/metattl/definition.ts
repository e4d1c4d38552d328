/** Meta-TTL's registry entry. */
import { learnerSettings, type LearnerDefinition } from '../learner-definition.ts';
import { NEEDS_MODEL } from './guide-adaptation.ts';
import { LearnerDataGuideStore } from './guide-store.ts';
import { MetaTtlLearner, MetaTtlPlanSchema, METATTL_ID } from './metattl-learner.ts';
import { DEFAULT_METATTL, MetaTtlSettingsSchema, type MetaTtlSettings } from './metattl-settings.ts';

export const metattlDefinition: LearnerDefinition<MetaTtlSettings> = {
  id: METATTL_ID,
  label: 'Meta-TTL',
  settings: { schema: MetaTtlSettingsSchema, defaults: DEFAULT_METATTL, read: (s) => learnerSettings(metattlDefinition, s) },
  enabled: (s) => learnerSettings(metattlDefinition, s).enabled,
  needsModel: { level: 'required', description: NEEDS_MODEL },
  planSchema: MetaTtlPlanSchema,
  create: (ports) => new MetaTtlLearner({
    store: new LearnerDataGuideStore(ports.stores.learnerData, METATTL_ID, ports.clock),
    model: ports.model,
    settings: () => learnerSettings(metattlDefinition, ports.settings()),
    clock: ports.clock,
  }),
  // Forget a site, export, import and the Memory tab's list, through the generic learner store.
  memory: (ports) => new LearnerDataGuideStore(ports.stores.learnerData, METATTL_ID, ports.clock).data.memory(),
};
