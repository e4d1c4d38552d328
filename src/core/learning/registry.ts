/**
 * The learner registry: every learner Apprentice has, in the order the agent
 * loop calls them (request shaping, then adjusting, then learning). Adding a
 * learner is one folder under src/core/learning/<name>/ and one line here
 * (and one in registry-factories.ts).
 *
 * This file holds the UI-safe definitions (names, settings schemas, whether a
 * model is needed): the options page and the panel import it without pulling
 * in any learner's code. The background and the benchmark build learners with
 * registry-factories.ts.
 *
 * Order matters where learners chain: `shapeRequest` changes and `adjust`
 * outputs are applied one after another in this order.
 */
import { cerDefinition } from './cer/definition.ts';
import { evotestDefinition } from './evotest/definition.ts';
import { jitrlDefinition } from './jitrl/definition.ts';
import { tfgrpoDefinition } from './tfgrpo/definition.ts';
import { metattlDefinition } from './metattl/definition.ts';
import type { LearnerDefinition } from './learner-definition.ts';

export const LEARNERS: readonly LearnerDefinition[] = [
  cerDefinition,
  jitrlDefinition,
  tfgrpoDefinition,
  evotestDefinition,
  metattlDefinition,
];

/**
 * The learner configurations the benchmark runs when given none, and the one the demo and the
 * team benchmark show (registry ids joined by "+"). Kept with the registry, so no benchmark file
 * names a learner.
 */
export const BENCH_CONFIGURATIONS: { default: readonly string[]; showcase: string; hijack: string } = {
  default: ['static', 'jitrl', 'cer', 'jitrl+cer', 'metattl', 'jitrl+metattl'],
  showcase: 'jitrl+cer',
  // bench:trust part (a), the hijacked model through the built extension: the learners on
  // there (every other one off) — the set its published figures were measured with.
  hijack: 'tfgrpo',
};

export class UnknownLearnerError extends Error {
  override name = 'UnknownLearnerError';
}

export function learnerDefinition<D extends LearnerDefinition>(id: string, registry: readonly D[] = LEARNERS as readonly D[]): D {
  const found = registry.find((d) => d.id === id);
  if (!found) throw new UnknownLearnerError(`no learner "${id}" (known: ${registry.map((d) => d.id).join(', ')})`);
  return found;
}
