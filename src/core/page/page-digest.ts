/**
 * A bounded, secret-free digest of what a page showed: the rendered snapshot,
 * truncated to a character cap, with the values of secret fields masked. Kept
 * on every step of a trajectory, so a reflective learner has the page to
 * reflect on, and nothing secret reaches storage or exports.
 */
import type { PageObservation, SnapshotNode } from './observation.ts';
import { renderObservation, truncateObservation } from './render-observation.ts';
import { secretKindOf } from './secret-fields.ts';

/** Characters kept of a step's page rendering. */
export const PAGE_DIGEST_CHARS = 4000;

/** Labels of fields whose content is a secret (password, PIN, card number, one-time code…). */
export const SECRET_LABEL = /pass(?:word|code|phrase)?|\bpin\b|cvv|cvc|security code|card number|secret|token|one-time|otp/i;

export const SECRET_MASK = '••••••';

/** A field whose value must never be stored: a password input, or a field labelled as a secret. */
export function isSecretNode(node: SnapshotNode): boolean {
  return node.inputType === 'password' || (node.kind === 'interactive' && (SECRET_LABEL.test(node.name) || secretKindOf(node) !== null));
}

/** The observation with every secret field's value replaced by a mask. */
export function maskSecretValues(observation: PageObservation): PageObservation {
  return {
    ...observation,
    nodes: observation.nodes.map((n) => (n.value !== undefined && n.value !== '' && isSecretNode(n) ? { ...n, value: SECRET_MASK } : n)),
  };
}

/** The rendered snapshot, secrets masked, within `maxChars` (truncated the way the prompt is). */
export function pageDigest(observation: PageObservation, maxChars: number = PAGE_DIGEST_CHARS): string {
  const text = renderObservation(truncateObservation(maskSecretValues(observation), { maxChars }));
  return text.length <= maxChars ? text : text.slice(0, maxChars);
}
