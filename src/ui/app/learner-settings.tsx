/**
 * The options page's section per registry learner, generated from its
 * definition: its label, what it needs of a model (said plainly when it needs
 * one and none is configured), and one input per setting from its schema and
 * defaults (schema-fields.ts: labels are the `.describe()` texts). Every
 * learner's settings live under `settings.learners[id]`, so a new learner gets
 * a section here with no change to the page. A learner may register a view of
 * its own instead (learner-settings-views.tsx), saved at once.
 */
import type { LearnerDefinition } from '../../core/learning/learner-definition.ts';
import { learnerSettings } from '../../core/learning/learner-definition.ts';
import type { Settings } from '../../core/settings.ts';

export type { LearnerSettingsViewProps } from './learner-view-types.ts';
import { FieldInputs } from './field-input.tsx';
import { fieldValues, labelsByPath, readFields, schemaFields, type FieldValue, type FieldValues, type SchemaField } from './schema-fields.ts';


/** The fields of one learner; paths (and errors) are `learners.<id>.<key>`. */
export const learnerFields = (definition: LearnerDefinition): SchemaField[] =>
  schemaFields(`learners.${definition.id}`, definition.settings.schema, definition.settings.defaults);

export function learnerValues(settings: Settings, registry: readonly LearnerDefinition[]): FieldValues {
  return Object.assign({}, ...registry.map((d) => fieldValues(learnerFields(d), learnerSettings(d, settings))));
}

/**
 * The `learners` part of the settings to save: what was stored, with each
 * learner's fields replaced by the edited values and validated by its own
 * schema. Errors are keyed like the fields.
 */
export function learnersFromValues(
  previous: Settings['learners'],
  values: FieldValues,
  registry: readonly LearnerDefinition[],
): { learners: Settings['learners']; errors: Record<string, string> } {
  const learners: Record<string, unknown> = { ...(previous ?? {}) };
  const errors: Record<string, string> = {};
  for (const definition of registry) {
    const parsed = definition.settings.schema.safeParse(readFields(learnerFields(definition), values));
    if (parsed.success) learners[definition.id] = parsed.data;
    else for (const issue of parsed.error.issues) errors[`learners.${definition.id}.${issue.path.join('.')}`] ??= issue.message;
  }
  return { learners: Object.keys(learners).length > 0 ? learners : previous, errors };
}

/** Each learner field's label by its path, for the list of fields to fix. */
export const learnerFieldLabels = (registry: readonly LearnerDefinition[]): Record<string, string> =>
  labelsByPath(registry.flatMap(learnerFields));

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
  values: FieldValues;
  errors: Record<string, string>;
  modelConfigured: boolean;
  onChange: (path: string, value: FieldValue) => void;
}) {
  return (
    <>
      {props.registry.map((definition) => {
        const notice = needsModelNotice(definition, props.modelConfigured);
        return (
          <fieldset key={definition.id} aria-label={`${definition.label} settings`}>
            <legend>{definition.label}</legend>
            <p class={notice.warning ? 'error' : 'help'} role={notice.warning ? 'alert' : undefined}>{notice.text}</p>
            <FieldInputs fields={learnerFields(definition)} values={props.values} errors={props.errors} onChange={props.onChange} />
          </fieldset>
        );
      })}
    </>
  );
}
