/** What this learner shows in the panel (src/ui/app/learner-views.ts reads every learner's views.ts). */
import type { LearnerViews } from '../../ui/app/learner-view-types.ts';
import { JitrlCandidateEvidenceView, JitrlEvidenceView, jitrlCandidateWhy } from './ui/jitrl-evidence.tsx';
import { JitrlTransitionsPanel } from './ui/transitions-panel.tsx';

export const views: LearnerViews = { evidence: JitrlEvidenceView, candidateEvidence: JitrlCandidateEvidenceView, candidateWhy: jitrlCandidateWhy, memoryPanel: JitrlTransitionsPanel };
