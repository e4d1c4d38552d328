/** Builds EvoTest from ports. */
import { learnerSettings, type LearnerDefinition, type LearnerFactory, type LearnerPorts } from '../../core/learning/learner-definition.ts';
import { registryTunables } from '../../core/learning/tunables.ts';
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
 * EvoTest's factory over the registry's definitions (its registry argument: the tunables the other learners
 * declare, which its configurations evolve). Passed in by registry-factories.ts, so this folder
 * imports no registry (which would be an import cycle through every learner).
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
  const tunables = registryTunables(registry);
  return new EvotestRuntime({
    store: lineageStoreOn(ports.stores.learnerData, ports.clock),
    settings: () => learnerSettings(evotestDefinition, ports.settings()),
    model: ports.model,
    // A new lineage starts from the product's current settings.
    seed: () => {
      const s = ports.settings();
      const tuned = Object.fromEntries(Object.entries(tunables).map(([key, t]) => [key, t.read(s)]));
      return seedConfiguration({ ...s.policy, maxSteps: s.agent.maxSteps }, tuned);
    },
    tunables,
    clock: ports.clock,
  });
}

/** What the registry reads (registry-factories.ts globs every learner's factory.ts): EvoTest's is built over the definitions. */
export { evotestFactoryFor as factoryFor };
