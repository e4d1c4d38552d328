/**
 * The learner registry: every learner Apprentice has, in the order the agent
 * loop calls them (request shaping, then adjusting, then learning). A learner
 * is one folder, src/learners/<id>/; this file finds them by globbing their
 * `definition.ts` (Vite and vitest natively; under tsx and esbuild through
 * scripts/import-meta-glob.mjs), so adding a learner is adding its folder and
 * removing it is deleting the folder.
 *
 * This file holds the UI-safe definitions (names, settings schemas, whether a
 * model is needed): the options page and the panel import it without pulling
 * in any learner's code. The background and the benchmark build learners with
 * registry-factories.ts.
 *
 * Order matters where learners chain: `shapeRequest` changes and `adjust`
 * outputs are applied one after another, in each definition's `order`.
 */
import { DEFAULT_LEARNER_ORDER, type LearnerDefinition } from '../learner-definition.ts';
import { PREFERRED_BENCH_CONFIGURATIONS } from './bench-configurations.ts';

const DEFINITIONS = import.meta.glob<{ definition: LearnerDefinition }>('../../../learners/*/definition.ts', { eager: true });

/** The learner folder a globbed path names (`../../learners/<id>/…`). */
export function learnerFolderOf(path: string): string {
  const id = /\/learners\/([^/]+)\//.exec(path)?.[1];
  if (id === undefined) throw new Error(`registry: ${path} is not in a learner folder`);
  return id;
}

function definitionsFrom(modules: Readonly<Record<string, { definition: LearnerDefinition }>>): LearnerDefinition[] {
  const definitions = Object.entries(modules).map(([path, module]) => {
    const folder = learnerFolderOf(path);
    if (module.definition?.id !== folder) throw new Error(`registry: src/learners/${folder}/definition.ts must export \`definition\` with id "${folder}"`);
    return module.definition;
  });
  return definitions.sort((a, b) => (a.order ?? DEFAULT_LEARNER_ORDER) - (b.order ?? DEFAULT_LEARNER_ORDER) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export const LEARNERS: readonly LearnerDefinition[] = definitionsFrom(DEFINITIONS);

/**
 * The learner configurations the benchmark runs when given none, and the one the demo and the
 * team benchmark show: bench-configurations.ts, less any configuration naming a learner whose
 * folder is gone (so deleting a folder needs no edit here; such a showcase falls back to static).
 */
const present = (config: string): boolean => config === 'static' || config.split('+').every((id) => LEARNERS.some((d) => d.id === id));
export const BENCH_CONFIGURATIONS: { default: readonly string[]; showcase: string; hijack: string } = {
  default: PREFERRED_BENCH_CONFIGURATIONS.default.filter(present),
  showcase: present(PREFERRED_BENCH_CONFIGURATIONS.showcase) ? PREFERRED_BENCH_CONFIGURATIONS.showcase : 'static',
  hijack: present(PREFERRED_BENCH_CONFIGURATIONS.hijack) ? PREFERRED_BENCH_CONFIGURATIONS.hijack : 'static',
};

export class UnknownLearnerError extends Error {
  override name = 'UnknownLearnerError';
}

export function learnerDefinition<D extends LearnerDefinition>(id: string, registry: readonly D[] = LEARNERS as readonly D[]): D {
  const found = registry.find((d) => d.id === id);
  if (!found) throw new UnknownLearnerError(`no learner "${id}" (known: ${registry.map((d) => d.id).join(', ')})`);
  return found;
}
