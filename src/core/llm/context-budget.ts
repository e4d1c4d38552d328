/**
 * Fitting the prompt into a model's context window by shrinking the one part
 * that can shrink: the page listing. Sizes are estimated in characters per
 * token — a per-provider default until the server's own usage count for a
 * prompt gives the measured ratio — because no tokenizer of the user's model
 * is available in the extension.
 */

/** Share of the estimated room actually used: the estimate is a ratio, not a tokenizer. */
export const SAFETY = 0.9;

/** Smallest page listing worth sending; below it the window is simply too small. */
export const MIN_OBSERVATION_CHARS = 200;

/**
 * Tokens kept for the answer when the window is known: at most a quarter of
 * the window, so a 4096-token window still leaves ~3000 for the prompt (the
 * candidate answer is a few hundred tokens; servers such as vLLM and OpenAI
 * count max_tokens against the window up front).
 */
export function completionReserve(contextTokens: number, maxTokens: number): number {
  return Math.max(1, Math.min(maxTokens, Math.floor(contextTokens / 4)));
}

export interface PromptSize {
  /** Characters of the whole prompt (every message). */
  promptChars: number;
  /** Characters of the page listing inside it. */
  observationChars: number;
}

/** Estimated prompt tokens. */
export const estimateTokens = (chars: number, charsPerToken: number): number => Math.ceil(chars / charsPerToken);

/**
 * The character budget for the page listing so the prompt fits
 * `contextTokens` with the completion reserve, or null when it already fits.
 * May be below MIN_OBSERVATION_CHARS: the caller decides that the window is
 * too small.
 *
 * room = ⌊(window − reserve) · SAFETY⌋ tokens; budget = ⌊room · charsPerToken⌋ − (promptChars − observationChars).
 */
export function observationBudget(size: PromptSize, contextTokens: number, maxTokens: number, charsPerToken: number): number | null {
  const room = Math.floor((contextTokens - completionReserve(contextTokens, maxTokens)) * SAFETY);
  if (estimateTokens(size.promptChars, charsPerToken) <= room) return null;
  return Math.floor(room * charsPerToken) - (size.promptChars - size.observationChars);
}

/** Chars per token measured on a prompt the server counted, or the previous ratio when the count is unusable. */
export function measuredCharsPerToken(promptChars: number, promptTokens: number, previous: number): number {
  if (!(promptTokens > 0) || !(promptChars > 0)) return previous;
  return promptChars / promptTokens;
}
