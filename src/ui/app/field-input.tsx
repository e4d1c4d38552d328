/** One generated settings input (schema-fields.ts), with its default and its error, and a list of them. */
import { defaultText, type FieldValue, type FieldValues, type SchemaField } from './schema-fields.ts';

export const fieldId = (path: string) => `opt-${path.replaceAll('.', '-')}`;

export function FieldInput({ field, value, error, onChange }: { field: SchemaField; value: FieldValue; error: string | undefined; onChange: (v: FieldValue) => void }) {
  const id = fieldId(field.path);
  const help = `${id}-help`;
  const describedBy = error ? `${help} ${id}-error` : help;
  const invalid = error ? 'true' : 'false';
  const text = (e: Event) => onChange((e.currentTarget as HTMLInputElement).value);
  return (
    <div class={`field field-${field.kind}`}>
      {field.kind === 'checkbox' ? (
        <label class="check">
          <input id={id} type="checkbox" checked={value === true} aria-describedby={describedBy} onChange={(e) => onChange(e.currentTarget.checked)} />
          {field.label}
        </label>
      ) : (
        <label for={id}>{field.label}</label>
      )}
      {field.kind === 'number' ? (
        <input id={id} type="number" step="any" value={String(value)} aria-invalid={invalid} aria-describedby={describedBy} onInput={text} />
      ) : null}
      {field.kind === 'text' ? (
        <input id={id} type="text" value={String(value)} aria-invalid={invalid} aria-describedby={describedBy} onInput={text} />
      ) : null}
      {field.kind === 'select' ? (
        <select id={id} value={String(value)} aria-describedby={describedBy} onChange={text}>
          {field.options?.map((o) => <option key={o} value={o}>{o}</option>)}
        </select>
      ) : null}
      {field.kind === 'lines' ? (
        <textarea id={id} rows={2} value={String(value)} aria-invalid={invalid} aria-describedby={describedBy} onInput={text} />
      ) : null}
      <span id={help} class="help">{field.help ? `${field.help}. ` : ''}default: {defaultText(field)}</span>
      {error ? <span id={`${id}-error`} class="error">{error}</span> : null}
    </div>
  );
}

/** The inputs of one group; errors are keyed by field path. */
export function FieldInputs({ fields, values, errors, onChange }: {
  fields: readonly SchemaField[];
  values: FieldValues;
  errors: Record<string, string>;
  onChange: (path: string, value: FieldValue) => void;
}) {
  return (
    <>
      {fields.map((f) => (
        <FieldInput key={f.path} field={f} value={values[f.path] ?? ''} error={errors[f.path]} onChange={(v) => onChange(f.path, v)} />
      ))}
    </>
  );
}
