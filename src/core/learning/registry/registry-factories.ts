/**
 * How to build each registry learner (registry.ts lists them, UI-safe): one
 * factory per learner id. Only the background, the benchmark and tests import
 * this file; the extension pages never do, so they bundle no learner code.
 */
import { InMemorySiteRows } from '../../stores/in-memory-site-rows.ts';
import { InMemoryLearnerDataStore } from '../in-memory/in-memory-learner-data-store.ts';
import { storesFrom, type StoreDeclaration, type StoreKind, type StoreKinds } from '../learner-stores.ts';
import { learnerSettings, portsFor, type BuiltLearner, type LearnerDefinition, type LearnerFactory, type LearnerMemory, type LearnerPorts, type LearnerStores, type ProcedureKnowledge, type RegisteredLearner } from '../learner-definition.ts';
import { InMemoryStepRowStore } from '../../stores/in-memory-step-rows.ts';
import type { Learner } from '../learner.ts';
import { LEARNERS, learnerDefinition, learnerFolderOf } from './registry.ts';
import type { Settings } from '../../settings.ts';

/**
 * A learner's `factory.ts` exports `factory`, or `factoryFor(definitions)` when it needs the
 * registry's definitions (handed in, so no learner folder imports the registry).
 */
type FactoryModule = { factory?: LearnerFactory; factoryFor?: (definitions: readonly LearnerDefinition[]) => LearnerFactory };
const FACTORY_MODULES = import.meta.glob<FactoryModule>('../../../learners/*/factory.ts', { eager: true });

export const LEARNER_FACTORIES: Readonly<Record<string, LearnerFactory>> = Object.fromEntries(Object.entries(FACTORY_MODULES).map(([path, module]) => {
  const id = learnerFolderOf(path);
  const factory = module.factory ?? module.factoryFor?.(LEARNERS);
  if (factory === undefined) throw new Error(`registry: src/learners/${id}/factory.ts exports neither \`factory\` nor \`factoryFor\``);
  return [id, factory];
}));

/** Every registry learner with its factory, in registry order. */
export const REGISTERED_LEARNERS: readonly RegisteredLearner[] = LEARNERS.map((definition) => {
  const factory = LEARNER_FACTORIES[definition.id];
  if (factory === undefined) throw new Error(`registry: learner "${definition.id}" has no factory (src/learners/${definition.id}/factory.ts)`);
  return { ...definition, ...factory };
});

export { BENCH_CONFIGURATIONS } from './registry.ts';

/** `settings.learners` with exactly the given registry learners switched on and every other one off. */
export function learnersOnly(settings: Settings, ids: readonly string[], registry: readonly RegisteredLearner[] = REGISTERED_LEARNERS): Record<string, unknown> {
  for (const id of ids) learnerDefinition(id, registry);
  const learners: Record<string, unknown> = { ...(settings.learners ?? {}) };
  for (const definition of registry) learners[definition.id] = { ...(learnerSettings(definition, settings) as object), enabled: ids.includes(definition.id) };
  return learners;
}

/** `settings.learners` with every registry learner switched off (runs that measure the agent without learning). */
export function learnersOff(settings: Settings, registry: readonly RegisteredLearner[] = REGISTERED_LEARNERS): Record<string, unknown> {
  return learnersOnly(settings, [], registry);
}

export type { BuiltLearner } from '../learner-definition.ts';

/** Builds the given learners (all by default) once, in registry order. */
export function buildLearners(ports: LearnerPorts, options: { ids?: readonly string[]; registry?: readonly RegisteredLearner[] } = {}): BuiltLearner[] {
  const registry = options.registry ?? REGISTERED_LEARNERS;
  for (const id of options.ids ?? []) learnerDefinition(id, registry);
  return registry
    .filter((d) => options.ids === undefined || options.ids.includes(d.id))
    .map((definition) => ({ definition, learner: definition.create(portsFor(definition, ports)) }));
}

/** Every store the learners declare, in memory (tests, the benchmark, the offline demo), built when first asked for. */
export function inMemoryLearnerStores(): LearnerStores {
  const build = <K extends StoreKind>(declaration: StoreDeclaration<K>): StoreKinds[K] => {
    const stores: { [Kind in StoreKind]: () => StoreKinds[Kind] } = { stepRows: () => new InMemoryStepRowStore(), siteRows: () => new InMemorySiteRows() };
    return stores[declaration.kind]();
  };
  return storesFrom(new InMemoryLearnerDataStore(), build);
}

/** Every registry learner's memory, by id, in registry order: what export, import, forget and sync go through. */
export function learnerMemories(ports: LearnerPorts, registry: readonly RegisteredLearner[] = REGISTERED_LEARNERS): { id: string; memory: LearnerMemory }[] {
  return registry.flatMap((d) => (d.memory ? [{ id: d.id, memory: d.memory(portsFor(d, ports)) }] : []));
}

/** What every registry learner offers replay (LearnerFactory.procedures), in registry order. */
export function procedureKnowledge(ports: LearnerPorts, registry: readonly RegisteredLearner[] = REGISTERED_LEARNERS): ProcedureKnowledge[] {
  return registry.flatMap((d) => (d.procedures ? [d.procedures(portsFor(d, ports))] : []));
}

/** The built learners that the settings switch on, in registry order. */
export function enabledLearners(built: readonly BuiltLearner[], settings: Settings): Learner[] {
  return built.filter((b) => b.definition.enabled(settings)).map((b) => b.learner);
}
