/** What this learner shows in the panel (src/ui/app/learner-views.ts reads every learner's views.ts). */
import type { LearnerViews } from '../../ui/app/learner-view-types.ts';
import { MetaTtlEpisodePanel } from './ui/metattl-guide-panel.tsx';

export const views: LearnerViews = { episodePanel: MetaTtlEpisodePanel };
