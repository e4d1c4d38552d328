/**
 * Masks secrets in an item before it becomes a shared document. Stored
 * memory should hold no secret already (the controller masks a step before
 * saving it); this is the second lock, for an item a learner wrote from text
 * that escaped the first. It uses the one secrets module (secret-fields.ts):
 * every action in semantic form found anywhere in the item (a whole string,
 * or one inside a longer text) that types into a password, one-time-code or
 * payment field gets its text masked, and every value so found is then
 * redacted wherever else it appears in the item (a state token, a hint).
 */
import { formatAction, parseAction } from '../page/action-grammar.ts';
import { maskedAction, redactSecretValues } from '../page/secret-fields.ts';

/** A semantic fill inside a longer text: `fill(<textbox "PIN">, "1234")`. */
const EMBEDDED_FILL = /\bfill\(<[^<>]*>,\s*"(?:[^"\\]|\\.)*"\)/g;

export interface MaskedItem<T> {
  item: T;
  /** How many typed values were masked. */
  masked: number;
}

function maskActionText(text: string, found: string[]): string {
  const whole = parseAction(text);
  if (whole.ok) {
    const masked = maskedAction(whole.action, { nodes: [] });
    if (masked === null) return text;
    if (whole.action.type === 'fill') found.push(whole.action.text);
    return formatAction(masked);
  }
  if (!text.includes('fill(')) return text;
  return text.replace(EMBEDDED_FILL, (call) => maskActionText(call, found));
}

function mapStrings(value: unknown, f: (s: string) => string): unknown {
  if (typeof value === 'string') return f(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, f)]));
  }
  return value;
}

/** The item with every secret typed into a secret field masked, everywhere it appears. */
export function maskSharedSecrets<T>(item: T): MaskedItem<T> {
  const found: string[] = [];
  const actionsMasked = mapStrings(item, (s) => maskActionText(s, found));
  if (found.length === 0) return { item, masked: 0 };
  const secrets = [...new Set(found)].sort((a, b) => b.length - a.length);
  return { item: mapStrings(actionsMasked, (s) => redactSecretValues(s, secrets)) as T, masked: found.length };
}

/** Every string in a JSON value (for scans: the secrets test and the benchmark). */
export function stringsIn(value: unknown): string[] {
  const out: string[] = [];
  mapStrings(value, (s) => {
    out.push(s);
    return s;
  });
  return out;
}
