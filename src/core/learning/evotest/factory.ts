/** Builds EvoTest from ports. */
import * as z from 'zod';
import { learnerSettings, type LearnerFactory, type LearnerPorts } from '../learner-definition.ts';
import { learnerDefinition } from '../registry.ts';
import type { Settings } from '../../settings.ts';
import { seedConfiguration } from './configuration.ts';
import { evotestDefinition } from './definition.ts';
import { EvotestLearner } from './evotest-learner.ts';
import { EvotestRuntime } from './evotest-runtime.ts';
import { lineageDataOn, lineageStoreOn } from './lineage-store.ts';

export const evotestFactory: LearnerFactory = {
  create: (ports) => new EvotestLearner(runtimeFor(ports)),
  // Forget, export, import and list through the generic per-learner store.
  memory: (ports) => lineageDataOn(ports.stores.learnerData, ports.clock).memory(),
};

function runtimeFor(ports: LearnerPorts): EvotestRuntime {
  return new EvotestRuntime({
    store: lineageStoreOn(ports.stores.learnerData, ports.clock),
    settings: () => learnerSettings(evotestDefinition, ports.settings()),
    model: ports.model,
    // A new lineage starts from the product's current settings.
    seed: () => {
      const s = ports.settings();
      return seedConfiguration({ ...valueUpdateSeed(s), ...s.policy, maxSteps: s.agent.maxSteps });
    },
    clock: ports.clock,
  });
}

/** EvoTest also evolves JitRL's β, λ and r (its `valueUpdate`): a lineage starts from their current values. */
const ValueUpdateSeedSchema = z.object({ beta: z.number(), lambda: z.number(), threshold: z.number() });
function valueUpdateSeed(settings: Settings): z.infer<typeof ValueUpdateSeedSchema> {
  return ValueUpdateSeedSchema.parse(learnerDefinition('jitrl').settings.read(settings));
}
