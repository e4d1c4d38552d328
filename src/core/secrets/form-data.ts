/**
 * Secret values in what a form sends (SnapshotNode.formData, issue 30). The
 * gate must tell row-token=A from row-token=B without keeping either, so a
 * secret value travels in two steps:
 * - the page layer writes it as its mask and its SHA-256 (`{secret}#<64 hex>`),
 *   never as text (`formFieldValue`);
 * - the worker replaces that by the mask and an HMAC under its install key
 *   (`{secret}~<16 hex>`), or by the mask alone where it has no key
 *   (`keyFormData`). Only the keyed form is stored: without the key a stored
 *   digest cannot be checked against guesses.
 */
import type { FormField } from '../page/observation.ts';
import { findSecrets } from './find-secrets.ts';
import { hmacSha256Hex, sha256Hex } from './keyed-digest.ts';
import { secretKindOf } from './secret-fields.ts';
import { maskOf, SECRET_KINDS, type SecretKind } from './secret-kinds.ts';

/** Longer values are kept as a prefix and a digest of the whole (a long comment still differs from another). */
export const MAX_FORM_VALUE = 300;

const KINDS = SECRET_KINDS.join('|');
const UNKEYED = new RegExp(`^\\{(${KINDS})\\}#([0-9a-f]{64})$`);

/** What the page layer knows of a field it sends. */
export interface FormFieldFacts {
  name: string;
  value: string;
  inputType?: string | undefined;
  autocomplete?: string | undefined;
}

function secretKindOfField(field: FormFieldFacts): SecretKind | null {
  // A field's name counts whatever its role: it is sent, so it holds a value.
  const byField = secretKindOf({ role: 'textbox', name: field.name.replace(/[_.[\]]+/g, ' '), inputType: field.inputType, autocomplete: field.autocomplete, value: field.value });
  return byField ?? findSecrets(field.value)[0]?.kind ?? null;
}

/** The value as the page layer sends it: a secret as `{kind}#sha256`, a long value capped with a digest, the rest as is. */
export function formFieldValue(field: FormFieldFacts): string {
  if (field.value === '') return '';
  const kind = secretKindOfField(field);
  if (kind !== null) return `${maskOf(kind)}#${sha256Hex(field.value)}`;
  if (field.value.length <= MAX_FORM_VALUE) return field.value;
  // A cryptographic digest: a page must not be able to craft another long value that compares equal.
  return `${field.value.slice(0, MAX_FORM_VALUE)}…#${sha256Hex(field.value).slice(0, 32)}`;
}

/** The fields with every unkeyed secret digest keyed under `key`, or reduced to its mask when there is no key. */
export function keyFormData(fields: readonly FormField[], key: string | undefined): FormField[] {
  return fields.map((f) => {
    const m = UNKEYED.exec(f.value);
    if (m === null) return f;
    const kind = m[1] as SecretKind;
    return { name: f.name, value: key === undefined ? maskOf(kind) : `${maskOf(kind)}~${hmacSha256Hex(key, m[2]!).slice(0, 16)}` };
  });
}

/** A fingerprint whose form data came from the page layer (a demonstration): unkeyed digests reduced to masks before it is stored. */
export function maskedFormData<T extends { formData?: FormField[] | undefined }>(target: T, key?: string): T {
  return target.formData === undefined ? target : { ...target, formData: keyFormData(target.formData, key) };
}
