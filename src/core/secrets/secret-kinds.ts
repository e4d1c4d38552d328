/**
 * The one mask. A secret's value becomes `{kind}` wherever it would leave the
 * worker's memory (a prompt, a store, an export, a shared document): it says
 * what was there and never what. The kind stays in the mask because the agent
 * types a secret from the task only into a field of the same kind (a card
 * number never goes into a comment box), so `{password}` and `{payment}` must
 * stay apart. Nothing outside src/core/secrets/ writes a mask by hand
 * (`npm run lint:secrets`).
 */

/** What a secret is: a password or PIN, a one-time code, payment data, or another secret (a token, an API key). */
export type SecretKind = 'password' | 'one-time-code' | 'payment' | 'secret';

export const SECRET_KINDS: readonly SecretKind[] = ['password', 'one-time-code', 'payment', 'secret'];

/** The text a secret of this kind becomes. */
export function maskOf(kind: SecretKind): string {
  return `{${kind}}`;
}

const MASK_WORDS = SECRET_KINDS.join('|');
const WHOLE_MASK = new RegExp(`^\\{(?:${MASK_WORDS})\\}$`);
const ANY_MASK = new RegExp(`\\{(?:${MASK_WORDS})\\}`);

/** The text is exactly a mask (already masked: nothing to hide). */
export function isMask(text: string): boolean {
  return WHOLE_MASK.test(text);
}

/** The text holds a mask somewhere (an action that would type a secret this worker no longer has). */
export function containsMask(text: string): boolean {
  return ANY_MASK.test(text);
}

/** The kind a mask stands for, or null when the text is not a mask. */
export function kindOfMask(text: string): SecretKind | null {
  return isMask(text) ? (text.slice(1, -1) as SecretKind) : null;
}
