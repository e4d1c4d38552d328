/**
 * JitRL Steps 2–6 of Algorithm 1, pure: from the neighbours N(s) and the
 * model's candidates to base and adjusted logits for the augmented candidate
 * set.
 *   V(s) = mean G over N(s)                                   (Eq. 4)
 *   Q(s,a) = mean G over N(s,a)          when |N(s,a)| > 0    (Eq. 5)
 *   Q(s,a) = V(s) + α/|N(s)|  with prob. λ, else 0            (Eq. 6)
 *   A = Q − V (Eq. 7), Ã normalized (Eq. 25), z' = z + β·Ã    (Eq. 10)
 */
import type { CandidateRecord } from '../../agent/episode.ts';
import type { Neighbour } from '../../memory/transition.ts';
import { formatAction } from '../../page/action-grammar.ts';
import type { Action } from '../../page/action.ts';
import type { RandomSource } from '../../ports.ts';
import type { JitrlSettings } from '../../settings.ts';
import type { ResolveAction, ToSemantic } from '../learner.ts';

/** ε of Eq. 25: keeps the division finite when every advantage is 0. */
export const NORMALIZATION_EPSILON = 1e-8;

export interface ModelCandidate {
  action: Action;
  logit: number;
  rationale?: string;
}

export interface EstimateInput {
  candidates: readonly ModelCandidate[];
  /** N(s), best first (memory-only actions enter in this order). */
  neighbours: readonly Neighbour[];
  resolve: ResolveAction;
  toSemantic: ToSemantic;
  settings: Pick<JitrlSettings, 'lambda' | 'alpha' | 'beta' | 'normalization'>;
  /** Drawn once per unseen candidate, in candidate order (the λ branch of Eq. 6). */
  random: RandomSource;
}

export interface EstimateOutput {
  candidates: CandidateRecord[];
  /** Ref-form actions, parallel to `candidates`. */
  actions: Action[];
  v: number | null;
  /** Distinct memory actions that no longer resolve on the current page. */
  droppedMemoryActions: number;
  notes: string[];
}

/** Plain softmax over logits. The model's sampling temperature is already part of its logits, so none is applied here. */
export function softmax(logits: readonly number[]): number[] {
  if (logits.length === 0) return [];
  const max = Math.max(...logits);
  const exps = logits.map((z) => Math.exp(z - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}

/**
 * Eq. 25 (`max-abs`): Ã = A / (max|A| + ε), so Ã ∈ [−1, 1].
 * `max-positive` (the authors' code): Ã = A / max(A) over positive A, so the
 * best action gets exactly 1 and worse ones may fall below −1. When no
 * advantage is positive that divisor does not exist; we then fall back to
 * max|A| + ε, so the negatives still push down, by at most β.
 */
export function normalizeAdvantages(advantages: readonly number[], mode: JitrlSettings['normalization']): number[] {
  const maxAbs = advantages.reduce((m, a) => Math.max(m, Math.abs(a)), 0);
  const maxPositive = advantages.reduce((m, a) => Math.max(m, a), 0);
  const divisor = mode === 'max-positive' && maxPositive > 0 ? maxPositive : maxAbs + NORMALIZATION_EPSILON;
  return advantages.map((a) => a / divisor);
}

interface Entry {
  action: Action;
  semantic: string;
  origin: 'model' | 'memory';
  rationale?: string;
  baseLogit: number;
}

export function estimateValues(input: EstimateInput): EstimateOutput {
  const notes: string[] = [];
  const entries: Entry[] = [];
  const seen = new Set<string>();

  for (const c of input.candidates) {
    const semantic = input.toSemantic(c.action);
    if (seen.has(semantic)) {
      notes.push(`duplicate candidate ${semantic} ignored`);
      continue;
    }
    seen.add(semantic);
    entries.push({ action: c.action, semantic, origin: 'model', baseLogit: c.logit, ...(c.rationale === undefined ? {} : { rationale: c.rationale }) });
  }

  // Eq. 23: add the neighbours' actions the model did not propose, with z = 0,
  // if they still resolve on this page.
  let dropped = 0;
  const tried = new Set<string>();
  for (const n of input.neighbours) {
    const semantic = n.transition.action;
    if (seen.has(semantic) || tried.has(semantic)) continue;
    tried.add(semantic);
    const action = input.resolve(semantic);
    if (action === null) {
      dropped++;
      continue;
    }
    // A loose match (e.g. by name substring) can land on an element a model
    // candidate already targets: that is the same action, not a new one.
    const resolvedSemantic = input.toSemantic(action);
    if (resolvedSemantic !== semantic && seen.has(resolvedSemantic)) continue;
    seen.add(semantic);
    entries.push({ action, semantic, origin: 'memory', baseLogit: 0 });
  }
  if (dropped > 0) notes.push(`${dropped} memory action(s) no longer on this page, dropped`);

  const baseProbs = softmax(entries.map((e) => e.baseLogit));
  const actions = entries.map((e) => e.action);

  if (input.neighbours.length === 0) {
    const candidates = entries.map((e, i): CandidateRecord => ({
      ...record(e),
      adjustedLogit: e.baseLogit,
      baseProb: baseProbs[i] ?? 0,
      adjustedProb: baseProbs[i] ?? 0,
      q: null,
      advantage: null,
      normAdvantage: null,
      support: 0,
      valueKind: 'none',
    }));
    return { candidates, actions, v: null, droppedMemoryActions: dropped, notes };
  }

  const { lambda, alpha, beta, normalization } = input.settings;
  const n = input.neighbours.length;
  const v = input.neighbours.reduce((sum, nb) => sum + nb.ret, 0) / n; // Eq. 4

  const valued = entries.map((e) => {
    const support = input.neighbours.filter((nb) => nb.transition.action === e.semantic);
    if (support.length > 0) {
      const q = support.reduce((sum, nb) => sum + nb.ret, 0) / support.length; // Eq. 5
      return { q, support: support.length, valueKind: 'known' as const };
    }
    // Eq. 6: optimism under uncertainty with probability λ, else a neutral 0.
    if (input.random.next() < lambda) return { q: v + alpha / n, support: 0, valueKind: 'optimistic' as const };
    return { q: 0, support: 0, valueKind: 'neutral' as const };
  });

  const advantages = valued.map((x) => x.q - v); // Eq. 7
  const normalized = normalizeAdvantages(advantages, normalization); // Eq. 25
  const adjusted = entries.map((e, i) => e.baseLogit + beta * (normalized[i] ?? 0)); // Eq. 10
  const adjustedProbs = softmax(adjusted);

  const candidates = entries.map((e, i): CandidateRecord => {
    const x = valued[i]!;
    return {
      ...record(e),
      adjustedLogit: adjusted[i] ?? e.baseLogit,
      baseProb: baseProbs[i] ?? 0,
      adjustedProb: adjustedProbs[i] ?? 0,
      q: x.q,
      advantage: advantages[i] ?? 0,
      normAdvantage: normalized[i] ?? 0,
      support: x.support,
      valueKind: x.valueKind,
    };
  });
  return { candidates, actions, v, droppedMemoryActions: dropped, notes };
}

function record(e: Entry): Pick<CandidateRecord, 'action' | 'semantic' | 'origin' | 'baseLogit' | 'rationale'> {
  return {
    action: formatAction(e.action),
    semantic: e.semantic,
    origin: e.origin,
    baseLogit: e.baseLogit,
    ...(e.rationale === undefined ? {} : { rationale: e.rationale }),
  };
}
