/**
 * The stores a learner is handed: the shared learner-data store (JSON records
 * by learner, origin and key: what a new learner uses), and the stores its
 * definition declares (`stores`). Two learners kept a store of their own
 * before the generic one; they declare it by kind and by its name (the
 * IndexedDB object store, the export archive's field and the team documents'
 * part, where their data already is). A learner reaches only what it
 * declared: the registry hands each one a view scoped to its declarations.
 */
import type { StepRowStore } from '../stores/step-rows.ts';
import type { LearnerDataStore } from './learner-data-store.ts';
import type { SiteRowStore } from '../stores/site-rows.ts';

/** The kinds of store the composition roots can build (IndexedDB in the extension, in memory elsewhere). */
export interface StoreKinds {
  /** Rows addressed by id and site, validated by the learner that reads them (site-rows.ts). */
  siteRows: SiteRowStore;
  /** Remembered steps, read by page type and written an episode at a time (step-rows.ts). */
  stepRows: StepRowStore;
}
export type StoreKind = keyof StoreKinds;

/** A store a learner needs: its kind and its name (where its rows live; never renamed). */
export interface StoreDeclaration<K extends StoreKind = StoreKind> {
  readonly kind: K;
  readonly name: string;
}

export interface LearnerStores {
  learnerData: LearnerDataStore;
  /** A store this learner declared; anything else is a wiring error (UndeclaredStoreError). */
  declared<K extends StoreKind>(declaration: StoreDeclaration<K>): StoreKinds[K];
}

export class UndeclaredStoreError extends Error {
  override name = 'UndeclaredStoreError';
}

/** Every store the roots hold: built on first use by `build`, one per name, of one kind. */
export function storesFrom(learnerData: LearnerDataStore, build: <K extends StoreKind>(declaration: StoreDeclaration<K>) => StoreKinds[K]): LearnerStores {
  const built = new Map<string, { kind: StoreKind; store: StoreKinds[StoreKind] }>();
  return {
    learnerData,
    declared<K extends StoreKind>(declaration: StoreDeclaration<K>): StoreKinds[K] {
      const found = built.get(declaration.name);
      if (found && found.kind !== declaration.kind) throw new UndeclaredStoreError(`store "${declaration.name}" is a ${found.kind} store, not ${declaration.kind}`);
      if (found) return found.store as StoreKinds[K];
      const store = build(declaration);
      built.set(declaration.name, { kind: declaration.kind, store });
      return store;
    },
  };
}

/** What one learner may reach: learnerData and the stores it declared. */
export function scopedStores(stores: LearnerStores, learnerId: string, declarations: readonly StoreDeclaration[]): LearnerStores {
  return {
    learnerData: stores.learnerData,
    declared<K extends StoreKind>(declaration: StoreDeclaration<K>): StoreKinds[K] {
      if (!declarations.some((d) => d.name === declaration.name && d.kind === declaration.kind)) {
        throw new UndeclaredStoreError(`learner "${learnerId}" did not declare the ${declaration.kind} store "${declaration.name}" (its definition's \`stores\`)`);
      }
      return stores.declared(declaration);
    },
  };
}
