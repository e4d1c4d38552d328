/**
 * What a learner's panel views are handed (the props of each kind of view), and
 * `LearnerViews`, what a learner's `views.ts` exports. Learner views import this
 * file and the UI kit (format.ts, learner-action.ts, …), never the view tables
 * (learner-views.ts), which reach every learner.
 */
import type { ComponentType } from 'preact';
import type { CandidateRecord, Episode } from '../../core/episode/episode.ts';
import type { LearnerDefinition } from '../../core/learning/learner-definition.ts';
import type { Settings } from '../../core/settings.ts';
import type { UiClient } from '../../protocol/validate.ts';

export interface EvidenceViewProps {
  /** The stored evidence: validate it with the learner's evidenceSchema before trusting its shape. */
  evidence: unknown;
}

export interface CandidateEvidenceViewProps {
  /** The learner's stored evidence about this candidate: validate it with its candidateEvidenceSchema. */
  evidence: unknown;
  /** The same learner's evidence for the whole step (`step.evidence[learnerId]`), if any. */
  stepEvidence: unknown;
  candidate: CandidateRecord;
}

export interface EpisodePanelProps {
  client: UiClient;
  episode: Episode;
}

export interface MemoryRecord {
  learnerId: string;
  origin: string;
  key: string;
  /** As stored: validate it with the learner's schema before trusting its shape. */
  value: unknown;
  updatedAt: number;
  /** Where it was imported from (an archive, team memory); absent for what was learned here. */
  importedFrom?: string | undefined;
}

export interface MemoryViewProps {
  records: MemoryRecord[];
}

export interface MemoryPanelProps {
  client: UiClient;
  origin: string;
  version: number;
  /** Something was edited or deleted: the tab refreshes its counts. */
  onChanged: () => void;
}

/** What a learner's own settings view gets. */
export interface LearnerSettingsViewProps {
  definition: LearnerDefinition;
  /** The settings as stored (read the learner's part with `learnerSettings`). */
  settings: Settings;
  modelConfigured: boolean;
  /** Saves the learner's settings at once (`settings.learners[id]`), over the stored settings. */
  save(next: unknown): Promise<void>;
}

/** Everything a learner shows in the panel, from its folder's `views.ts` (`export const views: LearnerViews`). */
export interface LearnerViews {
  /** Its step evidence (`step.evidence[id]`); without one, the generic field list. */
  evidence?: ComponentType<EvidenceViewProps>;
  /** Its evidence about one candidate (`candidate.evidence[id]`), in the card's Evidence section. */
  candidateEvidence?: ComponentType<CandidateEvidenceViewProps>;
  /** One plain line its evidence gives for a candidate (the card's why line); null when it has none. */
  candidateWhy?: (evidence: unknown) => string | null;
  /** A panel of its own beside the episode in the Run tab. */
  episodePanel?: ComponentType<EpisodePanelProps>;
  /** Its memory's records in the Memory tab; without one, each record's key and value. */
  memoryView?: ComponentType<MemoryViewProps>;
  /** A Memory-tab panel of its own (edit, undo, pin), shown instead of the list of records. */
  memoryPanel?: ComponentType<MemoryPanelProps>;
}

/** A learner's own options-page section instead of the generated form, from its folder's `settings-view.ts` (`export const settingsView`). */
export type LearnerSettingsView = ComponentType<LearnerSettingsViewProps>;
