/**
 * A bounded, secret-free digest of what a page showed: the rendered snapshot,
 * truncated to a character cap, with the values of secret fields masked. Kept
 * on every step of a trajectory, so a reflective learner has the page to
 * reflect on, and nothing secret reaches storage or exports.
 */
import type { PageObservation } from '../page/observation.ts';
import { renderObservation, truncateObservation } from '../page/render-observation.ts';
import { maskObservation } from './mask-secrets.ts';

/** Characters kept of a step's page rendering. */
export const PAGE_DIGEST_CHARS = 4000;

/** The rendered snapshot, secrets masked, within `maxChars` (truncated the way the prompt is). */
export function pageDigest(observation: PageObservation, maxChars: number = PAGE_DIGEST_CHARS): string {
  const text = renderObservation(truncateObservation(maskObservation(observation), { maxChars }));
  return text.length <= maxChars ? text : text.slice(0, maxChars);
}
