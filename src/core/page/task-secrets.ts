/**
 * Secrets a person types into the task itself ("sign in with password
 * hunter2", "pay with card 4111 1111 1111 1111, CVC 123"). The task is stored,
 * exported, synced and put in prompts, so the values become their masks
 * there ({password}, {payment}, {one-time-code}); the real values stay in
 * memory only, and the controller types them where an approved action types
 * the mask. After a worker restart they are gone, and the person types again.
 *
 * Recognised: a value after "password", "passcode", "passphrase" or "PIN";
 * a one-time code after "code", "OTP" or "verification code"; card numbers
 * (13–19 digits, spaces or dashes allowed) and a CVC/CVV after its name.
 * Words that cannot be a password ("password field", "password reset") are
 * not taken for one.
 */
import { SECRET_MASKS, type SecretKind } from './secret-fields.ts';

export interface MaskedTask {
  task: string;
  /** The real values, by mask; several values of one kind keep the first (the mask cannot tell them apart). */
  secrets: Partial<Record<string, string>>;
}

const NOT_A_VALUE = new Set([
  'field', 'box', 'input', 'form', 'page', 'reset', 'manager', 'is', 'in', 'into', 'for', 'the', 'a', 'an', 'and', 'or', 'to', 'of', 'with',
  'from', 'on', 'that', 'this', 'my', 'your', 'their', 'it', 'again', 'change', 'forgot', 'forgotten', 'new', 'old', 'strength', 'hint',
]);

const RULES: { kind: SecretKind; pattern: RegExp }[] = [
  // "password: hunter2", "password is 'hunter 2'", "PIN 1234"
  { kind: 'password', pattern: /\b(?:password|passcode|passphrase|pin)\b\s*(?:is|:|=|of)?\s*(?:"([^"]+)"|'([^']+)'|(\S+))/gi },
  { kind: 'one-time-code', pattern: /\b(?:one[- ]time (?:code|password)|otp|verification code|2fa code|code)\b\s*(?:is|:|=)?\s*(\d{4,8})\b/gi },
  // The card number first: when a task holds several values of one kind, the first is the one typed for its mask.
  { kind: 'payment', pattern: /\b(\d(?:[ -]?\d){12,18})\b/g },
  { kind: 'payment', pattern: /\b(?:cvc2?|cvv2?|security code)\b\s*(?:is|:|=)?\s*(\d{3,4})\b/gi },
];

const trimPunctuation = (s: string): string => s.replace(/[.,;!?)]+$/, '');

export function maskTaskSecrets(task: string): MaskedTask {
  let out = task;
  const secrets: Partial<Record<string, string>> = {};
  for (const { kind, pattern } of RULES) {
    out = out.replace(pattern, (whole: string, ...groups: unknown[]) => {
      const raw = groups.slice(0, 3).find((g): g is string => typeof g === 'string' && g !== '');
      if (raw === undefined) return whole;
      const value = trimPunctuation(raw);
      if (value === '' || NOT_A_VALUE.has(value.toLowerCase()) || /^\{[a-z-]+\}$/.test(value)) return whole;
      const mask = SECRET_MASKS[kind];
      secrets[mask] ??= value;
      const at = whole.lastIndexOf(raw);
      return `${whole.slice(0, at)}${mask}${raw.slice(value.length)}${whole.slice(at + raw.length)}`;
    });
  }
  return { task: out, secrets };
}

/** The action text with each mask the task's secrets know replaced by the real value (for the moment it runs). */
export function unmaskTaskSecrets(text: string, secrets: Partial<Record<string, string>>): string {
  let out = text;
  for (const [mask, value] of Object.entries(secrets)) if (value !== undefined) out = out.split(mask).join(value.replace(/["\\]/g, (c) => `\\${c}`));
  return out;
}
