/**
 * Tokens and Jaccard similarity for retrieval (JitRL Eq. 24). Tasks and
 * effective states (semantic actions) are both compared as token sets.
 */

// Kept deliberately small: words such as "to", "from", "in" can be field
// labels (`fill(<textbox "From">, …)`), so they stay. Numbers stay too: they
// often distinguish tasks ("order 12" vs "order 15").
const STOP_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'and', 'or', 'of', 'is', 'are', 'be', 'it', 'its', 'this', 'that',
  'please', 'i', 'me', 'my', 'you', 'your',
]);

/** Lowercase word tokens (letters and digits of any script, joined by inner underscores as in `select_option`), deduplicated, stop words dropped, in first-seen order. */
export function tokenize(text: string): string[] {
  const seen = new Set<string>();
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}]+(?:_[\p{L}\p{N}]+)*/gu)) {
    const token = match[0];
    if (!STOP_WORDS.has(token)) seen.add(token);
  }
  return [...seen];
}

/** Tokens of an effective state (a list of semantic actions). The empty state ("No action") has no tokens. */
export function stateTokensOf(effectiveState: readonly string[]): string[] {
  return tokenize(effectiveState.join(' '));
}

/**
 * JitRL Eq. 24: |A ∩ B| / |A ∪ B| over token sets.
 * Two empty sets count as identical (1): two empty effective states are the
 * same state ("No action", e.g. at step 0 or right after arriving on a page).
 */
export function jaccard(a: readonly string[], b: readonly string[]): number {
  const setA = new Set(a);
  const setB = new Set(b);
  if (setA.size === 0 && setB.size === 0) return 1;
  let intersection = 0;
  for (const token of setA) if (setB.has(token)) intersection++;
  return intersection / (setA.size + setB.size - intersection);
}
