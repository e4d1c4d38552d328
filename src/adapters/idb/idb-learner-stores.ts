/**
 * The learners' stores in IndexedDB: learnerData, and each declared store
 * (learner-stores.ts) on the object store of its name. Only the stores that
 * existed before the generic learner-data store can be declared here; a new
 * object store needs a database version, and a new learner needs none
 * (learnerData holds its records).
 */
import type { Logger } from '../../core/ports.ts';
import { storesFrom, type LearnerStores, type StoreDeclaration, type StoreKind, type StoreKinds } from '../../core/learning/learner-stores.ts';
import { IdbLearnerDataStore } from './idb-learner-data-store.ts';
import { IdbStepRowStore, STEP_ROW_STORES } from './idb-step-row-store.ts';
import { IdbSiteRows, type SiteRowStoreName } from './idb-site-rows.ts';
import type { ApprenticeDb } from './open-database.ts';

const SITE_ROW_STORES: readonly SiteRowStoreName[] = ['experiences'];

export function idbLearnerStores(db: ApprenticeDb, logger: Logger): LearnerStores {
  const build = <K extends StoreKind>(declaration: StoreDeclaration<K>): StoreKinds[K] => {
    const builders: { [Kind in StoreKind]: (name: string) => StoreKinds[Kind] | null } = {
      stepRows: (name) => {
        const known = STEP_ROW_STORES.find((n) => n === name);
        return known === undefined ? null : new IdbStepRowStore(db, logger, known);
      },
      siteRows: (name) => {
        const known = SITE_ROW_STORES.find((n) => n === name);
        return known === undefined ? null : new IdbSiteRows(db, known);
      },
    };
    const store = builders[declaration.kind](declaration.name);
    if (store === null) throw new Error(`IndexedDB has no ${declaration.kind} store "${declaration.name}" (a new learner keeps its records in learnerData)`);
    return store;
  };
  return storesFrom(new IdbLearnerDataStore(db, logger), build);
}
