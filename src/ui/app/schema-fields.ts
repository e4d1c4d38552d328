/**
 * A settings form generated from a zod object schema and its defaults: one
 * field per key, labelled by the schema's `.describe()` text (the key when
 * there is none). The kind of input follows the default and the schema: a
 * boolean is a checkbox, a number a number, an enum a choice, a list one
 * line per item, other text a text box. A schema's `.meta({ help })` is the
 * help text under the field (where the equation a setting comes from goes, so
 * the label stays in plain words). Settings that are not a flat value
 * (a record, a list of pairs) give a codec to and from lines.
 * The options page uses it for its own groups and for every registry learner.
 */

export type FieldKind = 'checkbox' | 'number' | 'select' | 'text' | 'lines';
export type FieldValue = string | boolean;
/** Field values by path (`group.key`, `learners.<id>.key`). */
export type FieldValues = Record<string, FieldValue>;

export interface LinesCodec {
  toLines(raw: unknown): string[];
  fromLines(lines: string[]): unknown;
}

export interface SchemaField {
  path: string;
  key: string;
  label: string;
  /** Said under the field, before its default (the schema's `.meta({ help })`). */
  help?: string;
  kind: FieldKind;
  /** The choices of an enum. */
  options?: readonly string[];
  /** The default, shown next to the input. */
  fallback: unknown;
  codec?: LinesCodec;
}

type FieldSchema = { description?: string; options?: readonly unknown[]; meta?: () => unknown } | undefined;
const helpOf = (field: FieldSchema): string | undefined => {
  const meta: unknown = typeof field?.meta === 'function' ? field.meta() : undefined;
  const help = isObject(meta) ? meta['help'] : undefined;
  return typeof help === 'string' && help.trim() !== '' ? help : undefined;
};
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The fields of one settings group (`prefix` names it in paths and errors). */
export function schemaFields(prefix: string, schema: unknown, defaults: unknown, codecs: Readonly<Record<string, LinesCodec>> = {}): SchemaField[] {
  if (!isObject(defaults)) return [];
  const shape = (schema as { shape?: Record<string, FieldSchema> }).shape ?? {};
  return Object.entries(defaults).map(([key, fallback]): SchemaField => {
    const path = `${prefix}.${key}`;
    const field = shape[key];
    const label = typeof field?.description === 'string' && field.description.trim() !== '' ? field.description : key;
    const codec = codecs[path];
    const options = Array.isArray(field?.options) ? field.options.map(String) : undefined;
    const help = helpOf(field);
    const base = { path, key, label, fallback, ...(help ? { help } : {}) };
    if (codec) return { ...base, kind: 'lines', codec };
    if (typeof fallback === 'boolean') return { ...base, kind: 'checkbox' };
    if (typeof fallback === 'number') return { ...base, kind: 'number' };
    if (Array.isArray(fallback)) return { ...base, kind: 'lines' };
    return options ? { ...base, kind: 'select', options } : { ...base, kind: 'text' };
  });
}

const toLines = (f: SchemaField, raw: unknown): string[] =>
  f.codec ? f.codec.toLines(raw) : Array.isArray(raw) ? raw.map(String) : [];

/** What the inputs show for a group's current values. */
export function fieldValues(fields: readonly SchemaField[], current: unknown): FieldValues {
  const group = isObject(current) ? current : {};
  const out: FieldValues = {};
  for (const f of fields) {
    const raw = group[f.key] ?? f.fallback;
    out[f.path] = f.kind === 'checkbox' ? raw === true : f.kind === 'lines' ? toLines(f, raw).join('\n') : String(raw);
  }
  return out;
}

/** The group object the inputs describe (not validated: the schema says what is wrong). */
export function readFields(fields: readonly SchemaField[], values: FieldValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const raw = values[f.path];
    if (f.kind === 'checkbox') out[f.key] = raw === true;
    else if (f.kind === 'number') out[f.key] = String(raw ?? '').trim() === '' ? Number.NaN : Number(raw);
    else if (f.kind === 'lines') {
      const lines = String(raw ?? '').split('\n').map((l) => l.trim()).filter((l) => l !== '');
      out[f.key] = f.codec ? f.codec.fromLines(lines) : lines;
    } else out[f.key] = String(raw ?? '');
  }
  return out;
}

/** The default as the help text says it. */
export function defaultText(f: SchemaField): string {
  const lines = f.kind === 'lines' ? toLines(f, f.fallback) : null;
  return lines ? (lines.length ? lines.join(', ') : 'none') : String(f.fallback);
}

/** Each field's label by its path, for the list of fields to fix. */
export const labelsByPath = (fields: readonly SchemaField[]): Record<string, string> =>
  Object.fromEntries(fields.map((f) => [f.path, f.label]));
