/**
 * The one field detector: which fields hold secrets, and of what kind. It
 * reads the input type, the autocomplete token and the field's name; the
 * vocabulary is the union of the four detectors this module replaced (see
 * /work/coord/notes-secrets.md), word-bounded so "passport", "passenger" or
 * "secretary" are not secrets.
 *
 * A name counts on a field: a role a person types into, a node that holds a
 * value, or the target of an action that types. A "Forgot password?" link is
 * not a password field; a "Password" textbox is.
 */
import type { Action } from '../page/action.ts';
import { nodeActedOn } from '../page/node-acted-on.ts';
import type { PageObservation } from '../page/observation.ts';
import type { SecretKind } from './secret-kinds.ts';

/** What the detector reads of a field (a SnapshotNode has all of it). */
export interface SecretFieldFacts {
  role: string;
  name: string;
  inputType?: string | undefined;
  autocomplete?: string | undefined;
  value?: string | undefined;
}

const ENTRY_ROLES: ReadonlySet<string> = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton']);

/** Field names, most specific kind first (a card's "security code" is payment, not a password). */
const NAMES: readonly { kind: SecretKind; pattern: RegExp }[] = [
  {
    kind: 'payment',
    pattern: /\b(card ?(number|no)|credit ?card|debit ?card|cvc2?|cvv2?|csc|cid|security code|card verification|expir(y|ation)( date)?|exp\.? date|mm ?\/ ?yy|iban|name on card|cardholder)\b/i,
  },
  { kind: 'one-time-code', pattern: /\b(one[- ]time|otp|verification code|2fa code|authenticat(ion|or) code)\b/i },
  { kind: 'password', pattern: /\b(passw\w*|passcode|passphrase|pwd|pin( code)?|mot de passe)\b/i },
  { kind: 'secret', pattern: /\b(secret|tokens?|api[- ]?key|access key|private key)\b/i },
];

/** The kind of secret named by a label, or null ("Card number" → payment). Names only: callers decide whether a name counts. */
export function secretKindOfName(name: string): SecretKind | null {
  return NAMES.find(({ pattern }) => pattern.test(name))?.kind ?? null;
}

/**
 * What kind of secret a field holds, null when none. `typedInto`: an action
 * types into it, so its name counts whatever its role.
 */
export function secretKindOf(field: SecretFieldFacts, typedInto = false): SecretKind | null {
  const auto = (field.autocomplete ?? '').toLowerCase().split(/\s+/);
  if (field.inputType === 'password' || auto.includes('current-password') || auto.includes('new-password')) return 'password';
  if (auto.includes('one-time-code')) return 'one-time-code';
  if (auto.some((t) => t.startsWith('cc-'))) return 'payment';
  if (!typedInto && !ENTRY_ROLES.has(field.role) && field.value === undefined) return null;
  return secretKindOfName(field.name);
}

export function isSecretField(field: SecretFieldFacts, typedInto = false): boolean {
  return secretKindOf(field, typedInto) !== null;
}

const TYPES: ReadonlySet<Action['type']> = new Set(['fill', 'press', 'clear']);

/**
 * The kind of secret field an action acts on: the page's node when the
 * observation shows it (type and autocomplete count), else its semantic
 * target's role and name. Null when it acts on no secret field.
 */
export function secretFieldOf(action: Action, observation: Pick<PageObservation, 'nodes'> = { nodes: [] }): SecretKind | null {
  if (!('target' in action) || !action.target) return null;
  const typedInto = TYPES.has(action.type);
  const node = nodeActedOn(action, { nodes: observation.nodes, focusedRef: null });
  if (node) return secretKindOf(node, typedInto);
  const t = action.target;
  return t.kind === 'semantic' ? secretKindOf({ role: t.role, name: t.name }, typedInto) : null;
}
