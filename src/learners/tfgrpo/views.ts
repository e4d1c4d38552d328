/** What this learner shows in the panel (src/ui/app/learner-views.ts reads every learner's views.ts). */
import type { LearnerViews } from '../../ui/app/learner-view-types.ts';
import { TfgrpoEvidenceView } from './ui/tfgrpo-evidence.tsx';
import { TfgrpoMemoryPanel } from './ui/tfgrpo-library.tsx';

export const views: LearnerViews = { evidence: TfgrpoEvidenceView, memoryPanel: TfgrpoMemoryPanel };
