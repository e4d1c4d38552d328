/**
 * Candidate logits z(s, a) from the model's output: token-level (read from
 * `top_logprobs` at the located option-index token) or verbalized (from the
 * 0–100 confidences the model wrote).
 *
 * Which token carries the choice. The candidate list numbers its options
 * 1, 2, 3 in order, so the digit after each `"option":` key is forced by the
 * numbering: its top_logprobs say nothing about preference (P("1") ≈ 1 at the
 * first position, P("2") ≈ 1 at the second). The output therefore ends with
 * `"best": <n>` — written after every option is on the page — and the
 * distribution over digits at that single position is the model's own
 * P(best = i). That is the option-index token we read, found by scanning the
 * reconstructed text for the key, never at a fixed offset (the authors' code
 * reads a fixed offset, which breaks as soon as spacing or tokenization
 * changes; see IMPLEMENTATION-NOTES). The logit of option i is
 * log Σ P(token) over the alternatives at that position that spell i (" 2"
 * and "2" are the same choice), so logits are log-probabilities on the same
 * scale as the logits z learners adjust.
 *
 * An option absent from top_logprobs. The provider lists the k most likely
 * tokens at the position, so any token it left out — including every
 * spelling of a missing option — has probability at most p_min, the smallest
 * probability listed (over every listed alternative, digits or not). All the
 * unlisted tokens together hold the residual mass R = 1 − Σ listed p, so m
 * missing options cannot each exceed R/m on a symmetric share. Their common
 * upper bound is u = min(p_min, R/m); we take half of it, p̂ = u/2, so the
 * floor sits strictly below every listed alternative (p̂ < p_min) and the
 * missing options together take at most half of R, leaving the rest to the
 * other unlisted tokens. When rounded logprobs make Σ listed p ≥ 1, R is
 * unknown and u = p_min/m. The floor is log p̂: finite, so the softmax stays
 * defined, and on the same log-probability scale as the listed options.
 * (The earlier rule, "lowest option logit − 1", could put a missing option
 * above listed non-option tokens and depended on which other digits happened
 * to be listed.)
 */
import type { TokenLogprob } from '../ports.ts';

export interface IndexTokenPosition {
  /** Index into the token list of the token that holds the first digit. */
  tokenIndex: number;
  /** Offset of that digit in the reconstructed text. */
  charOffset: number;
  /** The number written there. */
  value: number;
}

/** Every place where `"<key>": <digits>` occurs in the tokens' text, in order. */
export function locateIndexTokens(tokens: readonly TokenLogprob[], key: string): IndexTokenPosition[] {
  const starts: number[] = [];
  let text = '';
  for (const t of tokens) {
    starts.push(text.length);
    text += t.token;
  }
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`"${escaped}"\\s*:\\s*"?(\\d+)`, 'g');
  const found: IndexTokenPosition[] = [];
  for (const m of text.matchAll(re)) {
    const digits = m[1] ?? '';
    const charOffset = (m.index ?? 0) + m[0].length - digits.length;
    // The token whose span covers the first digit (the last start ≤ offset).
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= charOffset) lo = mid;
      else hi = mid - 1;
    }
    found.push({ tokenIndex: lo, charOffset, value: Number(digits) });
  }
  return found;
}

const logSumExp = (xs: number[]): number => {
  const m = Math.max(...xs);
  return m + Math.log(xs.reduce((s, x) => s + Math.exp(x - m), 0));
};

/** Splits "␠2," into its non-digit frame (" ", ",") and the number 2. */
function digitShape(token: string): { pre: string; value: number; post: string } | null {
  const m = /^(\D*)(\d+)(\D*)$/.exec(token);
  if (!m) return null;
  return { pre: (m[1] ?? '').trim(), value: Number(m[2]), post: (m[3] ?? '').trim() };
}

export interface IndexLogits {
  /** Option number → logit. Every requested option is present. */
  logits: Map<number, number>;
  /** Options that were not among the alternatives and got the floor value. */
  floored: number[];
}

/**
 * The floor logit for `missing` options absent from a position whose listed
 * alternatives have these logprobs (see the header: log(½·min(p_min, R/m))).
 */
export function missingOptionFloor(listedLogprobs: readonly number[], missing: number): number {
  const finite = listedLogprobs.filter((lp) => Number.isFinite(lp) && lp > -9999);
  const m = Math.max(1, missing);
  if (finite.length === 0) return Math.log(0.5 / m);
  const lpMin = Math.min(...finite);
  const residual = 1 - finite.reduce((sum, lp) => sum + Math.exp(lp), 0);
  // Log space throughout, so a tiny p_min (lp ≈ −200) stays finite.
  const logBound = residual > 0 ? Math.min(lpMin, Math.log(residual) - Math.log(m)) : lpMin - Math.log(m);
  return logBound + Math.log(0.5);
}

/**
 * Logits of `options` at one located index token. Alternatives count only when
 * they have the same frame as the chosen token (so `":2` is compared with
 * `":3`, not with an unrelated digit token).
 */
export function logitsAtIndexToken(token: TokenLogprob, options: readonly number[]): IndexLogits {
  const chosen = digitShape(token.token);
  const seen = new Set<string>();
  const byValue = new Map<number, number[]>();
  const listed: number[] = [];
  for (const alt of [{ token: token.token, logprob: token.logprob }, ...token.top]) {
    if (seen.has(alt.token)) continue;
    seen.add(alt.token);
    listed.push(alt.logprob);
    const shape = digitShape(alt.token);
    if (!shape || !Number.isFinite(alt.logprob) || alt.logprob <= -9999) continue;
    if (chosen && (shape.pre !== chosen.pre || shape.post !== chosen.post)) continue;
    const list = byValue.get(shape.value) ?? [];
    list.push(alt.logprob);
    byValue.set(shape.value, list);
  }
  const logits = new Map<number, number>();
  for (const o of options) {
    const lps = byValue.get(o);
    if (lps) logits.set(o, logSumExp(lps));
  }
  const floor = missingOptionFloor(listed, options.filter((o) => !logits.has(o)).length);
  const floored: number[] = [];
  for (const o of options) {
    if (!logits.has(o)) {
      logits.set(o, floor);
      floored.push(o);
    }
  }
  return { logits, floored };
}

/**
 * The logits of the options from the last `"best":` index token, or null when
 * the output has no such token (the caller falls back to verbalized logits).
 */
export function bestOptionLogits(tokens: readonly TokenLogprob[] | null, options: readonly number[]): IndexLogits | null {
  if (!tokens || tokens.length === 0 || options.length === 0) return null;
  const positions = locateIndexTokens(tokens, 'best');
  const last = positions[positions.length - 1];
  if (!last) return null;
  const token = tokens[last.tokenIndex];
  if (!token) return null;
  return logitsAtIndexToken(token, options);
}

/** Confidences below this are raised to it, so a 0 never becomes −∞. */
export const MIN_CONFIDENCE = 1;

/**
 * Verbalized confidences (0–100) → logits: clamp to [1, 100], normalize to a
 * distribution over the options, take the log. The result is a
 * log-probability like the token-level logits, so β means the same in both
 * modes; relative values are what the softmax sees.
 */
export function verbalizedLogits(confidences: readonly number[]): number[] {
  const clamped = confidences.map((c) => (Number.isFinite(c) ? Math.min(100, Math.max(MIN_CONFIDENCE, c)) : MIN_CONFIDENCE));
  const total = clamped.reduce((s, c) => s + c, 0);
  return clamped.map((c) => Math.log(c / total));
}
