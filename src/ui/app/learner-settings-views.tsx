/**
 * Learners whose options-page section is a view of their own rather than the
 * generated form (learner-settings.tsx), by learner id, read from every learner
 * folder's `settings-view.ts` (`export const settingsView`). Such a view saves at once.
 * Apart from learner-views.ts, so the options page bundles no panel view.
 */
import type { ComponentType } from 'preact';
import { learnerFolderOf } from '../../core/learning/registry/registry.ts';
import type { LearnerSettingsView, LearnerSettingsViewProps } from './learner-view-types.ts';

const SETTINGS_VIEW_MODULES = import.meta.glob<{ settingsView: LearnerSettingsView }>('../../learners/*/settings-view.ts', { eager: true });

export const SETTINGS_VIEWS: Readonly<Record<string, ComponentType<LearnerSettingsViewProps>>> = Object.fromEntries(
  Object.entries(SETTINGS_VIEW_MODULES).map(([path, module]) => [learnerFolderOf(path), module.settingsView]),
);
