/**
 * The learner registry: every learner Apprentice has, in the order the agent
 * loop calls them (request shaping, then adjusting, then learning). The
 * background, the benchmark and the settings iterate over this list; adding a
 * learner is one folder under src/core/learning/<name>/ and one line here.
 *
 * Order matters where learners chain: `shapeRequest` changes and `adjust`
 * outputs are applied one after another in this order.
 */
import { cerDefinition } from './cer/definition.ts';
import { jitrlDefinition } from './jitrl/definition.ts';
import { tfgrpoDefinition } from './tfgrpo/definition.ts';
import type { LearnerDefinition, LearnerPorts } from './learner-definition.ts';
import type { Learner } from './learner.ts';
import type { Settings } from '../settings.ts';

export const LEARNERS: readonly LearnerDefinition[] = [
  cerDefinition,
  jitrlDefinition,
  tfgrpoDefinition,
];

export class UnknownLearnerError extends Error {
  override name = 'UnknownLearnerError';
}

export function learnerDefinition(id: string, registry: readonly LearnerDefinition[] = LEARNERS): LearnerDefinition {
  const found = registry.find((d) => d.id === id);
  if (!found) throw new UnknownLearnerError(`no learner "${id}" (known: ${registry.map((d) => d.id).join(', ')})`);
  return found;
}

/** One built learner with its definition. */
export interface BuiltLearner {
  definition: LearnerDefinition;
  learner: Learner;
}

/** Builds the given learners (all by default) once, in registry order. */
export function buildLearners(ports: LearnerPorts, options: { ids?: readonly string[]; registry?: readonly LearnerDefinition[] } = {}): BuiltLearner[] {
  const registry = options.registry ?? LEARNERS;
  for (const id of options.ids ?? []) learnerDefinition(id, registry);
  return registry
    .filter((d) => options.ids === undefined || options.ids.includes(d.id))
    .map((definition) => ({ definition, learner: definition.create(ports) }));
}

/** The built learners that the settings switch on, in registry order. */
export function enabledLearners(built: readonly BuiltLearner[], settings: Settings): Learner[] {
  return built.filter((b) => b.definition.enabled(settings)).map((b) => b.learner);
}
