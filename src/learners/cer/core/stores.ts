/** The store CER declares (its definition's `stores`): its buffer, in the IndexedDB store, archive field and team part `experiences`. */
import type { StoreDeclaration } from '../../../core/learning/learner-stores.ts';

export const EXPERIENCES: StoreDeclaration<'siteRows'> = { kind: 'siteRows', name: 'experiences' };
