/**
 * Reads stored settings — today's shape or an older version's — into today's
 * shape, group by group over the defaults. A stored value that is not valid
 * is replaced by its default with a note saying which and why; nothing here
 * throws, so a corrupt entry never stops the extension.
 *
 * Older shapes it reads:
 *  - a learner whose settings had a top-level group of their own (its
 *    definition's `settings.legacyKey`) gets them under `learners[id]`; the
 *    policy's keys found in such a group (temperature, number of candidates)
 *    go to the `policy` group;
 *  - auto-approve becomes ask modes (autonomy/ask-mode.ts);
 *  - before revision 2, sampling at T = 1 was the default proposal rule:
 *    stored unchanged it becomes today's default, `likeliest` (an explicit
 *    choice — another temperature — is kept).
 * Notes never quote a stored string (it could be a key): only numbers,
 * booleans and the kind of value.
 */
import type * as z from 'zod';
import { migrateAgentSettings } from './autonomy/ask-mode.ts';
import type { LearnerDefinition } from './learning/learner-definition.ts';
import { DEFAULT_SETTINGS, PolicySettingsSchema, SETTINGS_REVISION, SettingsSchema, type Settings } from './settings.ts';

export interface LoadedSettings {
  settings: Settings;
  /** One line per stored value that was dropped or replaced by its default. */
  notes: string[];
}

type Fields = Record<string, unknown>;
const isFields = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);
const shown = (v: unknown): string =>
  typeof v === 'number' || typeof v === 'boolean' ? String(v) : v === null ? '(null)' : Array.isArray(v) ? '(a list)' : `(a ${typeof v})`;
const defaultText = (v: unknown): string => (typeof v === 'number' || typeof v === 'boolean' ? `the default ${String(v)}` : 'its default');
const shapeOf = (schema: z.ZodType): Record<string, z.ZodType> | null => {
  const shape = (schema as { shape?: unknown }).shape;
  return isFields(shape) ? (shape as Record<string, z.ZodType>) : null;
};

/**
 * One group: each field of the schema from the stored value when valid, else
 * its default (silently when it was missing, with a note when it was bad);
 * stored fields the schema does not know are dropped with a note.
 */
function readGroup<T>(name: string, schema: z.ZodType<T>, defaults: T, stored: unknown, notes: string[]): T {
  if (stored === undefined) return structuredClone(defaults);
  const shape = shapeOf(schema);
  if (!isFields(stored) || shape === null || !isFields(defaults)) {
    const whole = schema.safeParse(stored);
    if (whole.success) return whole.data;
    notes.push(`${name}: the stored value ${shown(stored)} is not valid; using the defaults`);
    return structuredClone(defaults);
  }
  const out: Fields = {};
  for (const [key, field] of Object.entries(shape)) {
    if (!(key in stored)) {
      if (key in defaults) out[key] = structuredClone(defaults[key]);
      continue;
    }
    const parsed = field.safeParse(stored[key]);
    if (parsed.success) {
      if (parsed.data !== undefined) out[key] = parsed.data;
      continue;
    }
    const reason = parsed.error.issues[0]?.message ?? 'invalid';
    if (key in defaults) {
      out[key] = structuredClone(defaults[key]);
      notes.push(`${name}.${key}: the stored value ${shown(stored[key])} is not valid (${reason}); using ${defaultText(defaults[key])}`);
    } else notes.push(`${name}.${key}: the stored value ${shown(stored[key])} is not valid (${reason}); dropped`);
  }
  for (const key of Object.keys(stored)) if (!(key in shape)) notes.push(`${name}.${key}: not a setting any more; dropped`);
  // Rules across fields, if a schema has any, still hold.
  const whole = schema.safeParse(out);
  if (whole.success) return whole.data;
  notes.push(`${name}: the stored values do not fit together; using the defaults`);
  return structuredClone(defaults);
}

/** Moves each learner's old top-level group under `learners[id]`, and the policy's keys out of it. */
function moveLegacyGroups(stored: Fields, registry: readonly LearnerDefinition[], notes: string[]) {
  const rest: Fields = { ...stored };
  const learners: Fields = isFields(stored['learners']) ? { ...stored['learners'] } : {};
  if (stored['learners'] !== undefined && !isFields(stored['learners'])) notes.push(`learners: the stored value ${shown(stored['learners'])} is not valid; every learner uses its defaults`);
  delete rest['learners'];
  const policy: Fields = {};
  for (const definition of registry) {
    const key = definition.settings.legacyKey;
    if (key === undefined || !(key in rest)) continue;
    const legacy = rest[key];
    delete rest[key];
    if (!isFields(legacy)) {
      notes.push(`${key}: the stored value ${shown(legacy)} is not valid; ${definition.label} uses its defaults`);
      continue;
    }
    const own: Fields = {};
    for (const [field, value] of Object.entries(legacy)) {
      if (field in PolicySettingsSchema.shape) policy[field] ??= value;
      else own[field] = value;
    }
    // Anything already under `learners[id]` is newer than the old group.
    learners[definition.id] = isFields(learners[definition.id]) ? { ...own, ...(learners[definition.id] as Fields) } : own;
  }
  if (Object.keys(policy).length > 0) rest['policy'] = isFields(rest['policy']) ? { ...policy, ...rest['policy'] } : policy;
  return { rest, learners };
}

/** Stored settings in today's shape, with a note for every value that could not be kept. */
export function loadSettings(raw: unknown, registry: readonly LearnerDefinition[]): LoadedSettings {
  const notes: string[] = [];
  if (raw === undefined || raw === null) return { settings: structuredClone(DEFAULT_SETTINGS), notes };
  if (!isFields(raw)) {
    notes.push(`the stored settings ${shown(raw)} are not valid; using the defaults`);
    return { settings: structuredClone(DEFAULT_SETTINGS), notes };
  }
  const { rest, learners: storedLearners } = moveLegacyGroups(raw, registry, notes);
  const shape = SettingsSchema.shape;
  const settings: Settings = {
    provider: readGroup('provider', shape.provider, DEFAULT_SETTINGS.provider, rest['provider'], notes),
    policy: readGroup('policy', shape.policy, DEFAULT_SETTINGS.policy, rest['policy'], notes),
    rewards: readGroup('rewards', shape.rewards, DEFAULT_SETTINGS.rewards, rest['rewards'], notes),
    agent: readGroup('agent', shape.agent, DEFAULT_SETTINGS.agent, migrateAgentSettings(rest['agent']), notes),
  };
  if (rest['replay'] !== undefined) {
    const replay = readGroup('replay', shape.replay.unwrap(), { enabled: true }, rest['replay'], notes);
    settings.replay = replay;
  }
  const learners: Fields = {};
  for (const [id, value] of Object.entries(storedLearners)) {
    const definition = registry.find((d) => d.id === id);
    // A learner this version does not have keeps what it stored (a later version may read it).
    learners[id] = definition ? readGroup(`learners.${id}`, definition.settings.schema, definition.settings.defaults, value, notes) : value;
  }
  if (Object.keys(learners).length > 0) settings.learners = learners;
  upgradeRevision(settings, rest['revision'], notes);
  for (const key of Object.keys(rest)) if (!(key in shape)) notes.push(`${key}: not a setting any more; dropped`);
  return { settings, notes };
}

/** Today's defaults for what an older revision stored as its own default; the result is marked as today's revision. */
function upgradeRevision(settings: Settings, stored: unknown, notes: string[]): void {
  const revision = typeof stored === 'number' ? stored : 1;
  if (revision < 2 && settings.agent.selection === 'sampling' && settings.agent.samplingTemperature === 1) {
    settings.agent = { ...settings.agent, selection: 'likeliest' };
    notes.push('agent.selection: proposals are now the likeliest candidate, the new default; the stored sampling at T = 1 was the old default (choose sampling again to explore)');
  }
  settings.revision = SETTINGS_REVISION;
}

/**
 * Problems with the learners' settings about to be saved (each registry
 * learner's stored value checked by its own schema, over its defaults), as
 * `learners.<id>.<field>: message`; empty when all are valid.
 */
export function learnerSettingsProblems(settings: Settings, registry: readonly LearnerDefinition[]): string[] {
  const problems: string[] = [];
  for (const definition of registry) {
    const stored = settings.learners?.[definition.id];
    if (stored === undefined) continue;
    const defaults = definition.settings.defaults;
    const merged = isFields(stored) && isFields(defaults) ? { ...defaults, ...stored } : stored;
    const parsed = definition.settings.schema.safeParse(merged);
    if (!parsed.success) for (const issue of parsed.error.issues) problems.push(`learners.${definition.id}.${issue.path.join('.')}: ${issue.message}`);
  }
  return problems;
}
