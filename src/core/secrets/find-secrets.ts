/**
 * The one free-text detector: secrets a person writes into text ("sign in
 * with password hunter2", "pay with card 4111 1111 1111 1111, CVC 123", "the
 * code is 482913", "use the API key sk-live-…"). It finds values, not words:
 * "reset the password field" holds no secret. Field values and typed text are
 * the field detector's (secret-fields.ts); this reads the task and other
 * written text.
 *
 * Recognised, in this order of precedence (an earlier rule wins an overlap):
 * - a value after password, passcode, passphrase, PIN or pwd;
 * - a 4–8 digit code after "code", OTP, one-time code, verification code;
 * - a card number: 13–19 digits, spaces or dashes allowed; after a card word
 *   ("card", "card number") any such number, elsewhere only one that passes
 *   the Luhn check (an ISBN or an order number is not a card);
 * - a CVC, CVV or security code of 3–4 digits after its name;
 * - a value of 8+ characters with a digit after "API key", "token", "secret",
 *   "access key", "private key";
 * - a token in a known key shape (sk-…, ghp_…, xoxb-…, AKIA…, AIza…, a JWT),
 *   or 24+ characters mixing upper case, lower case and digits.
 */
import type { SecretKind } from './secret-kinds.ts';

export interface FoundSecret {
  kind: SecretKind;
  /** The secret itself, as written (quotes and trailing punctuation left out). */
  value: string;
  /** Where the value starts and ends in the text. */
  start: number;
  end: number;
}

/** Words that follow "password" without being one ("password field", "password reset"). */
const NOT_A_VALUE = new Set([
  'field', 'box', 'input', 'form', 'page', 'reset', 'manager', 'is', 'in', 'into', 'for', 'the', 'a', 'an', 'and', 'or', 'to', 'of', 'with',
  'from', 'on', 'that', 'this', 'my', 'your', 'their', 'it', 'again', 'change', 'forgot', 'forgotten', 'new', 'old', 'strength', 'hint',
]);

/** A value after a label: quoted, or one run of characters that cannot be action syntax. */
const VALUE = String.raw`(?:"([^"<>]+)"|'([^'<>]+)'|([^\s"'<>()\[\]{}]+))`;
// "is" and "of" are words: "password isaac1" is the password isaac1.
const SEP = String.raw`\s*(?:(?:is|of)\b|:|=)?\s*`;

interface Rule {
  kind: SecretKind;
  pattern: RegExp;
  /** Whether the captured value is a secret (beyond its shape). */
  accept?: (value: string, whole: string) => boolean;
}

const luhn = (digits: string): boolean => {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
};

const CARD_WORD = /\b(?:card|card ?(?:number|no)|credit|debit|visa|mastercard|amex)\b[^\d]{0,12}$/i;

const RULES: readonly Rule[] = [
  { kind: 'password', pattern: new RegExp(String.raw`\b(?:password|passcode|passphrase|pin(?: code| number)?|pwd)\b${SEP}${VALUE}`, 'gi') },
  // Not a zip, postal, promo or coupon code.
  { kind: 'one-time-code', pattern: /(?<!\b(?:zip|postal|post|area|country|promo|coupon|discount|voucher|gift|product|order) )\b(?:one[- ]time (?:code|password|passcode)|otp|verification code|2fa code|code)\b\s*(?:is\b|:|=)?\s*(\d{4,8})\b/gi },
  { kind: 'payment', pattern: /\b(\d(?:[ -]?\d){12,18})\b/g, accept: (value, before) => CARD_WORD.test(before) || luhn(value.replace(/\D/g, '')) },
  { kind: 'payment', pattern: /\b(?:cvc2?|cvv2?|security code)\b\s*(?:is\b|:|=)?\s*(\d{3,4})\b/gi },
  { kind: 'secret', pattern: new RegExp(String.raw`\b(?:api[- ]?key|access key|private key|secret|token)\b${SEP}${VALUE}`, 'gi'), accept: (v) => v.length >= 8 && /\d/.test(v) },
  {
    kind: 'secret',
    pattern: /(?<![\w-])((?:sk|pk|rk)[-_](?:live[-_]|test[-_]|proj-)?[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_\w{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}|glpat-[A-Za-z0-9_-]{20,}|eyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,})(?![\w-])/g,
  },
  { kind: 'secret', pattern: /(?<![\w-])((?=[\w-]*[A-Z])(?=[\w-]*[a-z])(?=[\w-]*\d)[A-Za-z0-9_-]{24,})(?![\w-])/g },
];

/** A mask or a skill's {variable}: already no secret. */
const PLACEHOLDER = /^\{[\p{L}\p{N}_ -]+\}$/u;

const trimPunctuation = (s: string): string => s.replace(/[.,;:!?)]+$/, '');

/** Every secret value written in the text, in order of precedence then position; never two that overlap. */
export function findSecrets(text: string): FoundSecret[] {
  const found: FoundSecret[] = [];
  const overlaps = (start: number, end: number) => found.some((f) => start < f.end && f.start < end);
  for (const rule of RULES) {
    for (const m of text.matchAll(rule.pattern)) {
      const raw = m.slice(1).find((g): g is string => typeof g === 'string' && g !== '');
      if (raw === undefined) continue;
      const value = trimPunctuation(raw);
      const start = (m.index ?? 0) + m[0].lastIndexOf(raw);
      const end = start + value.length;
      if (value === '' || NOT_A_VALUE.has(value.toLowerCase()) || PLACEHOLDER.test(value) || overlaps(start, end)) continue;
      if (rule.accept && !rule.accept(value, text.slice(0, start))) continue;
      found.push({ kind: rule.kind, value, start, end });
    }
  }
  return found;
}
