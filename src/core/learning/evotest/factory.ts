/** Builds EvoTest from ports. */
import { learnerSettings, type LearnerFactory, type LearnerPorts } from '../learner-definition.ts';
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
      return seedConfiguration({ ...s.jitrl, maxSteps: s.agent.maxSteps });
    },
    clock: ports.clock,
  });
}
