/** What this learner shows in the panel (src/ui/app/learner-views.ts reads every learner's views.ts). */
import type { LearnerViews } from '../../ui/app/learner-view-types.ts';
import { EvotestCandidateEvidenceView, EvotestEvidenceView } from './ui/evotest-evidence-view.tsx';
import { EvotestDetails } from './ui/evotest-lineage-view.tsx';

export const views: LearnerViews = { evidence: EvotestEvidenceView, candidateEvidence: EvotestCandidateEvidenceView, memoryPanel: EvotestDetails };
