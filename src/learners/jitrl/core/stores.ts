/** The store JitRL declares (its definition's `stores`): transitions, in the IndexedDB store, archive field and team part `transitions`. */
import type { StoreDeclaration } from '../../../core/learning/learner-stores.ts';

export const TRANSITIONS: StoreDeclaration<'stepRows'> = { kind: 'stepRows', name: 'transitions' };
