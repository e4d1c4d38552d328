/**
 * Which candidate becomes the proposal: Algorithm 1 acts by sampling
 * a ~ Softmax(z′) (docs/learning.md, "Papers"); we sample from Softmax(z′/T) with one
 * seeded uniform draw, so a step is reproducible from its seed, and a
 * setting switches to argmax (the extension's default is `likeliest`:
 * exploitation, else argmax). Two rules come first:
 *
 * - a barred candidate (the person rejected it in this state, a failure's
 *   credit blamed it here, or taking it again would close a loop) is never
 *   proposed while an unbarred one exists;
 * - exploitation after success: a candidate the learner marked `settled`
 *   (a learner: this very state's returns average at least half a success) is
 *   chosen outright — the one with the highest z′ among several. Sampling is for where the agent is
 *   unsure; repeating what worked is not left to chance.
 */
import type { Barred } from '../episode/episode.ts';

/** What choosing reads of a candidate: the in-memory `Candidate` and the stored record both have it. */
export interface Choosable {
  readonly adjustedLogit: number;
  readonly barred?: Barred | undefined;
  readonly settled?: boolean | undefined;
}

/**
 * 'likeliest' (the extension's default, issue 31): what worked here is
 * repeated (exploitation), otherwise the highest z′ — never a draw, so a
 * person approving steps is always shown the likeliest one. 'sampling'
 * explores as Algorithm 1 acts (the benchmark). 'argmax' is the plain
 * highest z′, exploitation off (an ablation).
 */
export type SelectionMode = 'sampling' | 'argmax' | 'likeliest';

export interface ProposalChoice {
  /** Index into the records. */
  index: number;
  how: 'sampled' | 'argmax' | 'exploited';
  /** Probability the chosen candidate had under the rule that chose it (1 for argmax and exploitation). */
  probability: number;
}

/** Softmax(z/T); T = 0 puts all mass on the first maximum. */
export function samplingProbabilities(logits: readonly number[], temperature: number): number[] {
  if (logits.length === 0) return [];
  const max = Math.max(...logits);
  if (temperature <= 0) {
    const top = logits.indexOf(max);
    return logits.map((_, i) => (i === top ? 1 : 0));
  }
  const exps = logits.map((z) => Math.exp((z - max) / temperature));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}

/** Inverse-CDF draw from Softmax(z/T) with a uniform u ∈ [0, 1). */
export function sampleIndex(logits: readonly number[], temperature: number, u: number): number {
  const probs = samplingProbabilities(logits, temperature);
  let cumulative = 0;
  for (let i = 0; i < probs.length; i++) {
    cumulative += probs[i]!;
    if (u < cumulative) return i;
  }
  // Rounding can leave the sum a hair below 1: the last candidate with mass takes the rest.
  for (let i = probs.length - 1; i >= 0; i--) if (probs[i]! > 0) return i;
  return 0;
}

/** Display order: unbarred first, then by adjusted logit (ties keep the given order). */
export function rankForProposal(records: readonly Choosable[]): number[] {
  return records
    .map((_, i) => i)
    .sort((a, b) => Number(records[a]!.barred !== undefined) - Number(records[b]!.barred !== undefined)
      || records[b]!.adjustedLogit - records[a]!.adjustedLogit || a - b);
}

export function chooseProposal(
  records: readonly Choosable[],
  options: { mode: SelectionMode; temperature: number; u: number },
): ProposalChoice {
  const unbarred = records.map((_, i) => i).filter((i) => records[i]!.barred === undefined);
  const eligible = unbarred.length > 0 ? unbarred : records.map((_, i) => i);
  const settled = eligible
    .filter((i) => records[i]!.settled === true)
    // Among several, the highest z′: the state abstraction can merge states the
    // policy tells apart (before and after a click), and the policy sees the history.
    .sort((a, b) => records[b]!.adjustedLogit - records[a]!.adjustedLogit || a - b);
  if (options.mode !== 'argmax' && settled.length > 0) return { index: settled[0]!, how: 'exploited', probability: 1 };
  const logits = eligible.map((i) => records[i]!.adjustedLogit);
  if (options.mode !== 'sampling') {
    const top = rankForProposal(eligible.map((i) => records[i]!))[0] ?? 0;
    return { index: eligible[top] ?? 0, how: 'argmax', probability: 1 };
  }
  const at = sampleIndex(logits, options.temperature, options.u);
  return { index: eligible[at] ?? 0, how: 'sampled', probability: samplingProbabilities(logits, options.temperature)[at] ?? 0 };
}

/**
 * The distribution the proposal was actually drawn from, per candidate (the
 * proposal first, as steps store them): Softmax(z′/T) over the open
 * candidates when sampled (a barred one had 0), or all of it on the proposal
 * when a rule chose (argmax, or exploitation: "repeats what worked"). The
 * panel shows this, not Eq. 10's Softmax(z′) at T = 1, so an optimistic
 * unseen action (Eq. 6) never looks as if it had overtaken what was repeated.
 */
export function choiceDistribution(records: readonly Choosable[], selection: { how: ProposalChoice['how']; temperature: number }): number[] {
  if (records.length === 0) return [];
  if (selection.how !== 'sampled') return records.map((_, i) => (i === 0 ? 1 : 0));
  const open = records.map((_, i) => i).filter((i) => records[i]!.barred === undefined);
  const eligible = open.length > 0 ? open : records.map((_, i) => i);
  const probs = samplingProbabilities(eligible.map((i) => records[i]!.adjustedLogit), selection.temperature);
  const out = records.map(() => 0);
  eligible.forEach((i, k) => { out[i] = probs[k] ?? 0; });
  return out;
}
