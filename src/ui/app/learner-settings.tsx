/**
 * The options page's section per registry learner, generated from its
 * definition: its label, what it needs of a model (said plainly when it needs
 * one and none is configured), and one input per setting, from its defaults
 * and schema (labels are the schema's `.describe()` texts; an enum is a
 * choice). Every learner's settings live under `settings.learners[id]`, so a
 * new learner gets a section here with no change to this page.
 */
import type { LearnerDefinition } from '../../core/learning/learner-definition.ts';
import { learnerSettings } from '../../core/learning/learner-definition.ts';
import type { Settings } from '../../core/settings.ts';

export type LearnerFieldValue = string | boolean;
/** Field values by `learnerId.key`. */
export type LearnerValues = Record<string, LearnerFieldValue>;

type Kind = 'checkbox' | 'number' | 'text' | 'select' | 'lines';
interface LearnerField { learnerId: string; key: string; kind: Kind; fallback: unknown; label: string; options?: readonly string[] }
type FieldSchema = { description?: string; options?: readonly unknown[] } | undefined;

const fieldSchemaOf = (schema: unknown, key: string): FieldSchema =>
  (schema as { shape?: Record<string, FieldSchema> }).shape?.[key];

/** A setting's label: its schema's `.describe()` text, or its key when it has none. */
function labelOf(field: FieldSchema, key: string): string {
  const text = field?.description;
  return typeof text === 'string' && text.trim() !== '' ? text : key;
}

/** The learners whose section is generated here (the options page may show some with a view of their own). */
export function generatedLearners(registry: readonly LearnerDefinition[]): LearnerDefinition[] {
  return [...registry];
}

function fieldsOf(definition: LearnerDefinition): LearnerField[] {
  const defaults = definition.settings.defaults;
  if (typeof defaults !== 'object' || defaults === null || Array.isArray(defaults)) return [];
  return Object.entries(defaults).map(([key, value]): LearnerField => {
    const field = fieldSchemaOf(definition.settings.schema, key);
    const options = Array.isArray(field?.options) ? field.options.map(String) : undefined;
    return {
      learnerId: definition.id,
      key,
      fallback: value,
      label: labelOf(field, key),
      kind: typeof value === 'boolean' ? 'checkbox' : typeof value === 'number' ? 'number' : Array.isArray(value) ? 'lines' : options ? 'select' : 'text',
      ...(options ? { options } : {}),
    };
  });
}

/** Each generated field's label by its error path (`learners.<id>.<key>`), for the list of fields to fix. */
export function learnerFieldLabels(registry: readonly LearnerDefinition[]): Record<string, string> {
  return Object.fromEntries(generatedLearners(registry).flatMap(fieldsOf).map((f) => [`learners.${pathOf(f)}`, `${f.label}`]));
}

const pathOf = (f: Pick<LearnerField, 'learnerId' | 'key'>) => `${f.learnerId}.${f.key}`;

export function learnerValues(settings: Settings, registry: readonly LearnerDefinition[]): LearnerValues {
  const out: LearnerValues = {};
  for (const definition of generatedLearners(registry)) {
    const current = learnerSettings(definition, settings) as Record<string, unknown>;
    for (const f of fieldsOf(definition)) {
      const raw = current[f.key];
      out[pathOf(f)] = f.kind === 'checkbox' ? raw === true : f.kind === 'lines' ? (Array.isArray(raw) ? raw.map(String).join('\n') : '') : String(raw ?? '');
    }
  }
  return out;
}

/**
 * The `learners` part of the settings to save: what was stored, with each
 * generated learner's fields replaced by the edited values and validated by
 * its own schema. Errors are keyed like the fields (`learners.<id>.<key>`).
 */
export function learnersFromValues(
  previous: Settings['learners'],
  values: LearnerValues,
  registry: readonly LearnerDefinition[],
): { learners: Settings['learners']; errors: Record<string, string> } {
  const learners: Record<string, unknown> = { ...(previous ?? {}) };
  const errors: Record<string, string> = {};
  for (const definition of generatedLearners(registry)) {
    const edited: Record<string, unknown> = {};
    for (const f of fieldsOf(definition)) {
      const raw = values[pathOf(f)];
      edited[f.key] = f.kind === 'checkbox' ? raw === true
        : f.kind === 'number' ? (String(raw ?? '').trim() === '' ? Number.NaN : Number(raw))
        : f.kind === 'lines' ? String(raw ?? '').split('\n').map((l) => l.trim()).filter((l) => l !== '')
        : String(raw ?? '');
    }
    const parsed = definition.settings.schema.safeParse(edited);
    if (parsed.success) learners[definition.id] = parsed.data;
    else for (const issue of parsed.error.issues) errors[`learners.${definition.id}.${issue.path.join('.')}`] ??= issue.message;
  }
  return { learners: Object.keys(learners).length > 0 ? learners : previous, errors };
}

/** What a learner's section says about the model, and whether that is a warning. */
export function needsModelNotice(definition: LearnerDefinition, modelConfigured: boolean): { text: string; warning: boolean } {
  const { level, description } = definition.needsModel;
  if (level === 'required' && !modelConfigured) {
    return { text: `${definition.label} needs a model and none is configured, so it does not run: ${description} Choose a provider above.`, warning: true };
  }
  const prefix = level === 'required' ? 'Needs a model.' : level === 'optional' ? 'Uses a model when one is configured.' : 'Needs no model.';
  return { text: `${prefix} ${description}`, warning: false };
}

export function LearnerSettingsSections(props: {
  registry: readonly LearnerDefinition[];
  values: LearnerValues;
  errors: Record<string, string>;
  modelConfigured: boolean;
  onChange: (path: string, value: LearnerFieldValue) => void;
}) {
  return (
    <>
      {generatedLearners(props.registry).map((definition) => {
        const notice = needsModelNotice(definition, props.modelConfigured);
        return (
          <fieldset key={definition.id} aria-label={`${definition.label} settings`}>
            <legend>{definition.label}</legend>
            <p class={notice.warning ? 'error' : 'help'} role={notice.warning ? 'alert' : undefined}>{notice.text}</p>
            {fieldsOf(definition).map((f) => {
              const path = pathOf(f);
              const id = `opt-learner-${definition.id}-${f.key}`;
              const value = props.values[path] ?? '';
              const error = props.errors[`learners.${path}`];
              const help = `${id}-help`;
              const describedBy = error ? `${help} ${id}-error` : help;
              const fallback = Array.isArray(f.fallback) ? (f.fallback.length ? f.fallback.join(', ') : 'none') : String(f.fallback);
              return (
                <div key={path} class={`field field-${f.kind}`}>
                  {f.kind === 'checkbox' ? (
                    <label class="check">
                      <input id={id} type="checkbox" checked={value === true} aria-describedby={describedBy} onChange={(e) => props.onChange(path, e.currentTarget.checked)} />
                      {f.label}
                    </label>
                  ) : <label for={id}>{f.label}</label>}
                  {f.kind === 'number' ? (
                    <input id={id} type="number" step="any" value={String(value)} aria-invalid={error ? 'true' : 'false'} aria-describedby={describedBy}
                      onInput={(e) => props.onChange(path, e.currentTarget.value)} />
                  ) : null}
                  {f.kind === 'select' ? (
                    <select id={id} value={String(value)} aria-describedby={describedBy} onChange={(e) => props.onChange(path, e.currentTarget.value)}>
                      {f.options?.map((o) => <option key={o} value={o}>{o}</option>)}
                    </select>
                  ) : null}
                  {f.kind === 'text' ? (
                    <input id={id} type="text" value={String(value)} aria-invalid={error ? 'true' : 'false'} aria-describedby={describedBy}
                      onInput={(e) => props.onChange(path, e.currentTarget.value)} />
                  ) : null}
                  {f.kind === 'lines' ? (
                    <textarea id={id} rows={2} value={String(value)} aria-describedby={describedBy} onInput={(e) => props.onChange(path, e.currentTarget.value)} />
                  ) : null}
                  <span id={help} class="help">default: {fallback}</span>
                  {error ? <span id={`${id}-error`} class="error">{error}</span> : null}
                </div>
              );
            })}
          </fieldset>
        );
      })}
    </>
  );
}
