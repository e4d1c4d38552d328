/** EvoTest's registry entry. */
import { learnerSettings, type LearnerDefinition } from '../learner-definition.ts';
import { seedConfiguration } from './configuration.ts';
import { EvoPlanSchema, EvoStepEvidenceSchema } from './episode-plan.ts';
import { EvotestLearner, EVOTEST_ID } from './evotest-learner.ts';
import { EvotestRuntime } from './evotest-runtime.ts';
import { lineageDataOn, lineageStoreOn } from './lineage-store.ts';
import { DEFAULT_EVOTEST_SETTINGS, EvotestSettingsSchema, type EvotestSettings } from './settings.ts';

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
  create: (ports) => new EvotestLearner(runtimeFor(ports)),
  // Forget, export, import and list through the generic per-learner store.
  memory: (ports) => lineageDataOn(ports.stores.learnerData, ports.clock).memory(),
};

function runtimeFor(ports: Parameters<LearnerDefinition['create']>[0]): EvotestRuntime {
  return new EvotestRuntime({
    store: lineageStoreOn(ports.stores.learnerData, ports.clock),
    settings: () => learnerSettings(evotestDefinition, ports.settings()),
    model: ports.model,
    // A new lineage starts from the product's current settings.
    seed: () => {
      const s = ports.settings();
      return seedConfiguration({ ...s.jitrl, maxSteps: s.agent.maxSteps });
    },
    clock: ports.clock,
  });
}
