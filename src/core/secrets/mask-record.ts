/**
 * The second lock on records that leave memory whole: an export, an import,
 * a shared document. What is stored should hold no secret already (each entry
 * point masks: the page, the typed action, the task); this catches what
 * escaped, e.g. a row written by an older version or a learner quoting a
 * value. In every string: fills into secret fields are masked; in a `task`
 * the free-text detector runs too; then every value so found is masked
 * wherever else it appears in the record (a state token, a hint, a note).
 * Other strings (names, URLs, ids, page digests) are left to the field
 * detector: a page's own numbers and ids are not the person's secrets, and
 * changing them would break memory keys.
 */
import { maskSecrets, maskTypedSecrets, redactValues, type TypedSecret } from './mask-secrets.ts';

export interface MaskedRecord<T> {
  item: T;
  /** How many secret values were found (0 when the record was clean, as it should be). */
  masked: number;
}

/** Keys whose text a person wrote: the free-text detector reads them. */
const WRITTEN: ReadonlySet<string> = new Set(['task']);

function mapStrings(value: unknown, f: (s: string, key: string | null) => string, key: string | null = null): unknown {
  if (typeof value === 'string') return f(value, key);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f, key));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, f, k)]));
  }
  return value;
}

/** The record with every secret found in it masked, everywhere it appears. */
export function maskRecord<T>(item: T): MaskedRecord<T> {
  const found: TypedSecret[] = [];
  const firstPass = mapStrings(item, (s, key) => (key !== null && WRITTEN.has(key) ? maskSecrets(s, found) : maskTypedSecrets(s, found)));
  if (found.length === 0) return { item, masked: 0 };
  return { item: mapStrings(firstPass, (s) => redactValues(s, found)) as T, masked: found.length };
}

/** Every string in a JSON value (for scans: the secrets tests and the benchmark). */
export function stringsIn(value: unknown): string[] {
  const out: string[] = [];
  mapStrings(value, (s) => {
    out.push(s);
    return s;
  });
  return out;
}
