/**
 * The masking functions: every path that hides a secret calls one of these,
 * and each writes the one mask (`maskOf`, secret-kinds.ts).
 * - a field's value (the page snapshot, the page digest): by the field detector;
 * - an action that types into a secret field (a candidate, an edit, a demonstration);
 * - written text (the task, a prompt line): by the free-text detector, and
 *   semantic `fill(…)` calls inside it by the field detector;
 * - known values wherever else they appear (a learner's note quoting a candidate).
 */
import { formatAction, parseAction } from '../page/action-grammar.ts';
import type { Action } from '../page/action.ts';
import type { PageObservation } from '../page/observation.ts';
import { findSecrets } from './find-secrets.ts';
import { keyFormData } from './form-data.ts';
import { secretFieldOf, secretKindOf, type SecretFieldFacts } from './secret-fields.ts';
import { isMask, maskOf, type SecretKind } from './secret-kinds.ts';

/** The field with its value masked when it is a secret field (an empty field stays empty). */
export function maskFieldValue<T extends SecretFieldFacts>(field: T): T {
  if (field.value === undefined || field.value === '' || isMask(field.value)) return field;
  const kind = secretKindOf(field);
  return kind === null ? field : { ...field, value: maskOf(kind) };
}

/**
 * The observation with the values of secret fields masked, and the secret
 * values its forms send keyed under `formKey` (or masked without one:
 * form-data.ts). The same object when nothing changed.
 */
export function maskObservation<T extends Pick<PageObservation, 'nodes'>>(observation: T, formKey?: string): T {
  let changed = false;
  const nodes = observation.nodes.map((n) => {
    let masked = maskFieldValue(n);
    if (masked.formData !== undefined) {
      const formData = keyFormData(masked.formData, formKey);
      if (formData.some((f, i) => f !== masked.formData![i])) masked = { ...masked, formData };
    }
    if (masked !== n) changed = true;
    return masked;
  });
  return changed ? { ...observation, nodes } : observation;
}

/** A secret an action typed, with its kind: what `redactValues` hides elsewhere. */
export interface TypedSecret {
  kind: SecretKind;
  value: string;
}

/**
 * The action as it may be stored: text typed into a secret field becomes its
 * mask. `null` when the action types no secret (store it as it is).
 */
export function maskedAction(action: Action, observation: Pick<PageObservation, 'nodes'> = { nodes: [] }): { action: Action; secret: TypedSecret } | null {
  if (action.type !== 'fill' || action.text === '' || isMask(action.text)) return null;
  const kind = secretFieldOf(action, observation);
  if (kind === null) return null;
  return { action: { ...action, text: maskOf(kind) }, secret: { kind, value: action.text } };
}

/** A semantic fill inside a longer text: `fill(<textbox "PIN">, "1234")`. */
const EMBEDDED_FILL = /\bfill\(<[^<>]*>,\s*"(?:[^"\\]|\\.)*"\)/g;

/** Text holding actions in semantic form: each fill into a secret field masked, the values collected in `found`. */
export function maskTypedSecrets(text: string, found: TypedSecret[] = []): string {
  // Only a fill types text: most strings (names, URLs, ids) are passed without parsing.
  if (!text.includes('fill(')) return text;
  const whole = parseAction(text);
  if (whole.ok) {
    const masked = maskedAction(whole.action);
    if (masked === null) return text;
    found.push(masked.secret);
    return formatAction(masked.action);
  }
  return text.replace(EMBEDDED_FILL, (call) => maskTypedSecrets(call, found));
}

/**
 * Written text with every secret masked: fills into secret fields, then the
 * free-text detector's values, then those values wherever else they appear.
 */
export function maskSecrets(text: string, found: TypedSecret[] = []): string {
  const typed = maskTypedSecrets(text, found);
  const written = findSecrets(typed).sort((a, b) => b.start - a.start);
  let out = typed;
  for (const f of written) {
    out = `${out.slice(0, f.start)}${maskOf(f.kind)}${out.slice(f.end)}`;
    found.push({ kind: f.kind, value: f.value });
  }
  return redactValues(out, found);
}

/** Shorter values are left alone: masking "a" everywhere would hide the page. */
export const MIN_REDACTED_LENGTH = 4;

/**
 * Replaces every occurrence of known secret values in text (a later candidate,
 * a history line, a learner's note) by their mask; longest first, so a value
 * inside another is not half-masked.
 */
export function redactValues(text: string, secrets: readonly TypedSecret[]): string {
  let out = text;
  const longestFirst = [...secrets].sort((a, b) => b.value.length - a.value.length);
  for (const s of longestFirst) {
    if (s.value.length < MIN_REDACTED_LENGTH || isMask(s.value)) continue;
    out = out.split(s.value).join(maskOf(s.kind));
  }
  return out;
}
