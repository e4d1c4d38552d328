/**
 * The learners' stores for a test: the given instances (fresh in-memory ones
 * for the rest), as the registry's `LearnerStores`, with the two declared
 * stores also at hand for the test to read (`memory`, `experiences`).
 */
import { storesFrom, type LearnerStores, type StoreDeclaration, type StoreKind, type StoreKinds } from '../../src/core/learning/learner-stores.ts';
import type { LearnerDataStore } from '../../src/core/learning/learner-data-store.ts';
import { InMemoryLearnerDataStore } from '../../src/core/learning/in-memory/in-memory-learner-data-store.ts';
import type { SiteRowStore } from '../../src/core/stores/site-rows.ts';
import { InMemorySiteRows } from '../../src/core/stores/in-memory-site-rows.ts';
import type { StepRowStore } from '../../src/core/stores/step-rows.ts';
import { InMemoryStepRowStore } from '../../src/core/stores/in-memory-step-rows.ts';

export type TestLearnerStores<M extends StepRowStore = StepRowStore, E extends SiteRowStore = SiteRowStore> = LearnerStores & { memory: M; experiences: E };

export function testLearnerStores<M extends StepRowStore = InMemoryStepRowStore, E extends SiteRowStore = InMemorySiteRows>(
  given: { memory?: M; experiences?: E; learnerData?: LearnerDataStore } = {},
): TestLearnerStores<M, E> {
  const memory = given.memory ?? (new InMemoryStepRowStore() as StepRowStore as M);
  const experiences = given.experiences ?? (new InMemorySiteRows() as SiteRowStore as E);
  const build = <K extends StoreKind>(declaration: StoreDeclaration<K>): StoreKinds[K] => {
    const byKind: StoreKinds = { stepRows: memory, siteRows: experiences };
    return byKind[declaration.kind];
  };
  return Object.assign(storesFrom(given.learnerData ?? new InMemoryLearnerDataStore(), build), { memory, experiences });
}
