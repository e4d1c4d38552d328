/** Builds EvoTest from ports. */
import * as z from 'zod';
import { learnerSettings, type LearnerDefinition, type LearnerFactory, type LearnerPorts } from '../../core/learning/learner-definition.ts';
import type { Settings } from '../../core/settings.ts';
import { seedConfiguration } from './core/configuration.ts';
import { evotestDefinition } from './definition.ts';
import { EvotestLearner } from './core/evotest-learner.ts';
import { EvotestRuntime } from './core/evotest-runtime.ts';
import { evolutionReport, summarizeEvolution } from './core/evolution-summary.ts';
import type { Lineage } from './core/lineage.ts';
import { lineageDataOn, lineageStoreOn } from './core/lineage-store.ts';
import { EVOTEST_ACTIONS, EvotestLineageError } from './core/actions.ts';
import { evolverMode } from './core/evotest-runtime.ts';
import { pinConfiguration } from './core/lineage.ts';
import { checkedHandlers } from '../../core/learning/learner-actions.ts';

/**
 * EvoTest's factory over the registry's definitions (`registry`: where it reads the value
 * update's current β, λ and r). Passed in by registry-factories.ts, so this folder imports no
 * registry (which would be an import cycle through every learner).
 */
export const evotestFactoryFor = (registry: readonly LearnerDefinition[]): LearnerFactory => ({
  create: (ports) => new EvotestLearner(runtimeFor(ports, registry)),
  // Forget, export, import and list through the generic per-learner store.
  memory: (ports) => lineageDataOn(ports.stores.learnerData, ports.clock).memory(),
  runReport: {
    collect: (stores) => lineageStoreOn(stores.learnerData).list(),
    summarize: (items) => (items.length === 0 ? null : evolutionReport(summarizeEvolution(items as Lineage[]))),
  },
  actionHandlers: (ports) => {
    const lineages = lineageStoreOn(ports.stores.learnerData, ports.clock);
    return checkedHandlers(EVOTEST_ACTIONS, {
      lineages: async ({ origin }) => ({
        mode: evolverMode(learnerSettings(evotestDefinition, ports.settings()), ports.model()),
        lineages: await lineages.list(origin),
      }),
      pin: async ({ key, configurationId }) => {
        const lineage = await lineages.get(key);
        if (!lineage) throw new EvotestLineageError(`no EvoTest lineage ${key}`);
        if (configurationId !== null && !lineage.nodes.some((n) => n.id === configurationId)) throw new EvotestLineageError(`no configuration ${configurationId} in ${key}`);
        const pinned = pinConfiguration(lineage, configurationId, ports.clock.now());
        await lineages.put(pinned);
        return pinned;
      },
      reset: async ({ key }) => ({ deleted: await lineages.delete(key) }),
    });
  },
});

function runtimeFor(ports: LearnerPorts, registry: readonly LearnerDefinition[]): EvotestRuntime {
  return new EvotestRuntime({
    store: lineageStoreOn(ports.stores.learnerData, ports.clock),
    settings: () => learnerSettings(evotestDefinition, ports.settings()),
    model: ports.model,
    // A new lineage starts from the product's current settings.
    seed: () => {
      const s = ports.settings();
      return seedConfiguration({ ...valueUpdateSeed(s, registry), ...s.policy, maxSteps: s.agent.maxSteps });
    },
    clock: ports.clock,
  });
}

/**
 * EvoTest also evolves the value update's β, λ and r (`RequestShape.valueUpdate`): a lineage starts
 * from their current values, read from the registry learner whose settings hold them.
 */
const ValueUpdateSeedSchema = z.object({ beta: z.number(), lambda: z.number(), threshold: z.number() });
function valueUpdateSeed(settings: Settings, registry: readonly LearnerDefinition[]): z.infer<typeof ValueUpdateSeedSchema> {
  for (const definition of registry) {
    const parsed = ValueUpdateSeedSchema.safeParse(definition.settings.read(settings));
    if (parsed.success) return { beta: parsed.data.beta, lambda: parsed.data.lambda, threshold: parsed.data.threshold };
  }
  throw new Error('no registry learner has value-update settings (beta, lambda, threshold) for EvoTest to start from');
}

/** What the registry reads (registry-factories.ts globs every learner's factory.ts): EvoTest's is built over the definitions. */
export { evotestFactoryFor as factoryFor };
