/**
 * What a plan step does, beyond its role and name (issue 30, part 3): the
 * element as it was when the step ran in the success the procedure was built
 * from — where its link goes (query included), where its form goes and how,
 * what the form sends. The task's values in those texts become {variables}
 * (`abstractEffect`), and a bound plan puts the new values back
 * (`bindEffect`), so "Send {amount} to {name}" keeps its link's query. A
 * replayed step runs unasked only when the element it acts on has that
 * effect now (`planStepEffectChanges`); otherwise it asks, as the act-time
 * check does for a single step.
 */
import type { Action } from '../page/action.ts';
import type { PageObservation } from '../page/observation.ts';
import { actionFingerprint, fingerprintChanges, type TargetFingerprint } from '../page/target-fingerprint.ts';

/** How a value is written inside a URL or form text: as typed, percent-encoded, with spaces as '+', or both. */
const ENCODINGS: readonly { tag: string; encode: (v: string) => string }[] = [
  { tag: '', encode: (v) => v },
  { tag: '|uri', encode: (v) => encodeURIComponent(v) },
  { tag: '|plus', encode: (v) => v.replace(/ /g, '+') },
  { tag: '|form', encode: (v) => encodeURIComponent(v).replace(/%20/g, '+') },
];

const TOKEN = /\{([A-Za-z_][A-Za-z0-9_ -]*)(\|uri|\|plus|\|form)?\}/g;

/** The text with each bound value (longest first, in each of its encodings) replaced by its {variable|encoding}. */
export function abstractText(text: string, values: Readonly<Record<string, string>>): string {
  const pairs = Object.entries(values).filter(([, v]) => v.trim() !== '').sort((a, b) => b[1].length - a[1].length);
  let out = text;
  for (const [name, value] of pairs) {
    const seen = new Set<string>();
    for (const { tag, encode } of ENCODINGS) {
      const written = encode(value.trim());
      if (seen.has(written)) continue;
      seen.add(written);
      out = out.split(written).join(`{${name}${tag}}`);
    }
  }
  return out;
}

/** The text with each {variable|encoding} replaced by its value so written; a variable without a value stays. */
export function bindText(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(TOKEN, (whole, name: string, tag: string | undefined) => {
    const value = values[name.trim()];
    if (value === undefined) return whole;
    return (ENCODINGS.find((e) => e.tag === (tag ?? ''))?.encode ?? ((v: string) => v))(value.trim());
  });
}

const mapEffect = (effect: TargetFingerprint, f: (s: string) => string): TargetFingerprint => ({
  ...effect,
  ...(effect.href !== undefined ? { href: f(effect.href) } : {}),
  ...(effect.formAction !== undefined ? { formAction: f(effect.formAction) } : {}),
  ...(effect.formData !== undefined ? { formData: effect.formData.map((field) => ({ name: field.name, value: f(field.value) })) } : {}),
});

export const abstractEffect = (effect: TargetFingerprint, values: Readonly<Record<string, string>>): TargetFingerprint =>
  mapEffect(effect, (s) => abstractText(s, values));

export const bindEffect = (effect: TargetFingerprint, values: Readonly<Record<string, string>>): TargetFingerprint =>
  mapEffect(effect, (s) => bindText(s, values));

/**
 * What differs between a plan step's effect and the element the step acts on
 * now, in words; empty when it is the same. Role, name and row are the
 * step's semantic form, matched exactly before (replay-step.ts); this
 * compares the effect: link and form destination (whole URLs but tracking
 * keys, as approvals do), method, form data, submitting, input type. A step
 * with an element but no recorded effect (a procedure from before issue 30)
 * differs: nothing says what it was approved to do.
 */
export function planStepEffectChanges(effect: TargetFingerprint | undefined, action: Action, observation: Pick<PageObservation, 'nodes' | 'focusedRef'>): string[] {
  const now = actionFingerprint(action, observation);
  if (now === null) return [];
  if (effect === undefined) return ['the plan does not say what this step was approved to do (a procedure learned before effects were recorded)'];
  const { role, name, context } = now;
  return fingerprintChanges({ ...effect, role, name, ...(context !== undefined ? { context } : {}) }, now, 'site')
    .filter((c) => !c.startsWith('it sits '));
}
