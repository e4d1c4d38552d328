/**
 * The options page's groups outside the learners (policy, rewards, agent),
 * generated from SettingsSchema like the learners' sections: labels are the
 * schema's `.describe()` texts. The per-site ask modes and the actions that
 * always ask are not here: they are their own tables, first on the page
 * (site-ask-modes.tsx, always-ask-list.tsx).
 */
import { DEFAULT_SETTINGS, SettingsSchema, type Settings } from '../../core/settings.ts';
import { fieldValues, labelsByPath, readFields, schemaFields, type FieldValues, type SchemaField } from './schema-fields.ts';

export type CoreGroupId = 'policy' | 'rewards' | 'agent';
export interface CoreGroup { id: CoreGroupId; title: string; fields: SchemaField[] }

/** Settings with a view of their own on the page. */
const OWN_VIEW = new Set(['agent.askModes', 'agent.alwaysAsk']);

const group = (id: CoreGroupId, title: string): CoreGroup =>
  ({ id, title, fields: schemaFields(id, SettingsSchema.shape[id], DEFAULT_SETTINGS[id]).filter((f) => !OWN_VIEW.has(f.path)) });

export const CORE_GROUPS: readonly CoreGroup[] = [
  group('policy', 'Policy: how candidates are asked for'),
  group('rewards', 'Rewards'),
  group('agent', 'Agent'),
];

export const coreValues = (settings: Settings): FieldValues =>
  Object.assign({}, ...CORE_GROUPS.map((g) => fieldValues(g.fields, settings[g.id])));

/** The groups the inputs describe, by group id (validated by the caller with SettingsSchema). */
export const coreFromValues = (values: FieldValues): Record<CoreGroupId, Record<string, unknown>> =>
  Object.fromEntries(CORE_GROUPS.map((g) => [g.id, readFields(g.fields, values)])) as Record<CoreGroupId, Record<string, unknown>>;

export const CORE_LABELS: Record<string, string> = labelsByPath(CORE_GROUPS.flatMap((g) => g.fields));
