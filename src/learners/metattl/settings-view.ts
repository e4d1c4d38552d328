/** Meta-TTL's own options-page section (src/ui/app/learner-settings-views.tsx reads every learner's settings-view.ts). */
import type { LearnerSettingsView } from '../../ui/app/learner-view-types.ts';
import { MetaTtlSettingsView } from './ui/metattl-settings-section.tsx';

export const settingsView: LearnerSettingsView = MetaTtlSettingsView;
