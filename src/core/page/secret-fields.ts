/**
 * Which fields hold secrets, and how their values are masked. Pure: the
 * controller masks a live step before it is saved, the page drivers mask an
 * observation before it reaches a prompt, and exports read what was stored,
 * so one definition serves them all.
 *
 * Secret kinds: a password (input type=password or autocomplete
 * *-password), a one-time code (autocomplete=one-time-code, or a name such as
 * "verification code"), and payment data (autocomplete cc-*, or a name such
 * as card number, CVC, expiry).
 */
import type { Action } from './action.ts';
import type { PageObservation, SnapshotNode } from './observation.ts';

export type SecretKind = 'password' | 'one-time-code' | 'payment';

/** The text a masked value becomes: a placeholder that says what was there and never what. */
export const SECRET_MASKS: Readonly<Record<SecretKind, string>> = {
  password: '{password}',
  'one-time-code': '{one-time-code}',
  payment: '{payment}',
};

const PAYMENT_NAME = /\b(card ?number|credit ?card|debit ?card|card ?no|cvc2?|cvv2?|csc|cid|security code|card verification|expir(y|ation)( date)?|exp\.? date|mm ?\/ ?yy|iban|name on card|cardholder)\b/i;
const OTP_NAME = /\b(one[- ]time (code|password|passcode)|otp|verification code|2fa code|authenticat(ion|or) code)\b/i;
const PASSWORD_NAME = /\b(password|passphrase|passcode|pin( code)?)\b/i;

/** What kind of secret a field holds, from its type, autocomplete token and name; null when none. */
export function secretKindOf(node: Pick<SnapshotNode, 'inputType' | 'autocomplete' | 'name' | 'role'>): SecretKind | null {
  const auto = (node.autocomplete ?? '').toLowerCase().split(/\s+/);
  if (node.inputType === 'password' || auto.includes('current-password') || auto.includes('new-password')) return 'password';
  if (auto.includes('one-time-code')) return 'one-time-code';
  if (auto.some((t) => t.startsWith('cc-'))) return 'payment';
  // Names only count on fields a person types into.
  if (!/^(textbox|searchbox|combobox|spinbutton)$/.test(node.role)) return null;
  if (PAYMENT_NAME.test(node.name)) return 'payment';
  if (OTP_NAME.test(node.name)) return 'one-time-code';
  if (PASSWORD_NAME.test(node.name)) return 'password';
  return null;
}

/** The observation with the values of secret fields replaced by their mask (an empty field stays empty). */
export function maskObservationSecrets(observation: PageObservation): PageObservation {
  let changed = false;
  const nodes = observation.nodes.map((n) => {
    const kind = n.kind === 'interactive' ? secretKindOf(n) : null;
    if (kind === null || n.value === undefined || n.value === '' || n.value === SECRET_MASKS[kind] || /^[*•]+$/.test(n.value)) return n;
    changed = true;
    return { ...n, value: SECRET_MASKS[kind] };
  });
  return changed ? { ...observation, nodes } : observation;
}

/** The field an action types into, looked up by ref or by role and name in the observation. */
export function targetNode(action: Action, observation: Pick<PageObservation, 'nodes'>): SnapshotNode | undefined {
  if (!('target' in action) || !action.target) return undefined;
  const t = action.target;
  if (t.kind === 'ref') return observation.nodes.find((n) => n.ref === t.ref);
  return observation.nodes.find((n) => n.ref !== null && n.role === t.role && n.name === t.name);
}

/**
 * The action as it may be stored: text typed into a secret field becomes its
 * mask. `null` when the action types no secret (store it as it is).
 */
export function maskedAction(action: Action, observation: Pick<PageObservation, 'nodes'>): Action | null {
  if (action.type !== 'fill' || action.text === '') return null;
  const node = targetNode(action, observation);
  const kind = node ? secretKindOf(node) : action.target.kind === 'semantic' ? secretKindOf({ role: action.target.role, name: action.target.name }) : null;
  if (kind === null || action.text === SECRET_MASKS[kind]) return null;
  return { ...action, text: SECRET_MASKS[kind] };
}

/**
 * Replaces every occurrence of known secret values in free text (a later
 * candidate, a history line, an evaluator prompt). Values shorter than 4
 * characters are left alone: masking "a" everywhere would hide the page.
 */
export function redactSecretValues(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) {
    if (s.length < 4) continue;
    out = out.split(s).join('{secret}');
  }
  return out;
}
