/**
 * Learners whose options-page section is a view of their own rather than the
 * generated form (learner-settings.tsx), by learner id — one line per
 * learner, like EVIDENCE_VIEWS and MEMORY_VIEWS. Such a view saves at once.
 */
import type { ComponentType } from 'preact';
import type { LearnerSettingsViewProps } from './learner-settings.tsx';
import { MetaTtlSettingsView } from './metattl-settings-section.tsx';

export const SETTINGS_VIEWS: Readonly<Record<string, ComponentType<LearnerSettingsViewProps>>> = {
  metattl: MetaTtlSettingsView,
};
