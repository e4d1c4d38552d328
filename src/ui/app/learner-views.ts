/**
 * The panel's learner view tables, by learner id, read from every learner
 * folder's `views.ts` (src/learners/<id>/views.ts, `export const views: LearnerViews`):
 * no table names a learner, and deleting a learner folder removes its views.
 * Only the panel imports this (the options page reads learner-settings-views.tsx).
 */
import type { ComponentType } from 'preact';
import { learnerFolderOf } from '../../core/learning/registry/registry.ts';
import type { CandidateEvidenceViewProps, EpisodePanelProps, EvidenceViewProps, LearnerViews, MemoryPanelProps, MemoryViewProps } from './learner-view-types.ts';

const VIEW_MODULES = import.meta.glob<{ views: LearnerViews }>('../../learners/*/views.ts', { eager: true });

const VIEWS: readonly (readonly [string, LearnerViews])[] = Object.entries(VIEW_MODULES).map(([path, module]) => [learnerFolderOf(path), module.views]);

function table<K extends keyof LearnerViews>(kind: K): Readonly<Record<string, NonNullable<LearnerViews[K]>>> {
  return Object.fromEntries(VIEWS.flatMap(([id, views]) => (views[kind] === undefined ? [] : [[id, views[kind]]])));
}

/** Views of one candidate's evidence. */
export const CANDIDATE_EVIDENCE_VIEWS: Readonly<Record<string, ComponentType<CandidateEvidenceViewProps>>> = table('candidateEvidence');
/** The card's why line from a learner's candidate evidence. */
export const CANDIDATE_WHY: Readonly<Record<string, (evidence: unknown) => string | null>> = table('candidateWhy');
/** Views of a step's evidence. */
export const EVIDENCE_VIEWS: Readonly<Record<string, ComponentType<EvidenceViewProps>>> = table('evidence');
/** Run-tab panels beside the episode. */
export const EPISODE_PANELS: Readonly<Record<string, ComponentType<EpisodePanelProps>>> = table('episodePanel');
/** Memory-tab views of a learner's records. */
export const MEMORY_VIEWS: Readonly<Record<string, ComponentType<MemoryViewProps>>> = table('memoryView');
/** Memory-tab panels of their own, shown instead of the list of records. */
export const MEMORY_PANELS: Readonly<Record<string, ComponentType<MemoryPanelProps>>> = table('memoryPanel');
