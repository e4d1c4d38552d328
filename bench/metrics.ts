/**
 * Multi-attempt metrics. Every task is attempted K times in a row; s_{i,k} ∈
 * {0, 1} is the success of task i at attempt k (an attempt whose reward threw
 * is an 'error': it scores 0 in the rates but is counted apart).
 *
 * - Avg   = (1 / (T·K)) Σ_i Σ_k s_{i,k}                     (docs/learning.md, "Papers")
 * - Final = (1 / T) Σ_i s_{i,K}                              (docs/learning.md, "Papers")
 * - AUC   = (1 / T) Σ_i (1 / K) Σ_k R_{i,k}, with the running success rate
 *           R_{i,k} = (1 / k) Σ_{j ≤ k} s_{i,j}               (authors' code, as read in IMPLEMENTATION-NOTES)
 * - W-AUC = (1 / T) Σ_i Σ_k k·s_{i,k} / Σ_k k·s_max          (weighted AUC, docs/learning.md "Papers"; w_k = k, s_max = 1)
 * - Limit = (1 / T) Σ_i max_{k < K} s_{i,k}: the perfect-learner limit, the
 *           share of tasks solved at least once in attempts 1..K−1. A learner
 *           that kept every success it found would reach it at attempt K;
 *           Final / Limit says how much of what it found it kept.
 * - Later instances (with --memory carry, one attempt each): the success rate
 *           on every instance of a template after the first one run, i.e.
 *           what experience carried from earlier instances of that template.
 *
 * A missing attempt (a task that stopped early) is padded as a failure and
 * counted in `missing`: early stopping must not shrink K and inflate W-AUC.
 * W-AUC is also reported unpadded (`waucUnpadded`: the weights of the attempts
 * that ran only), because the two differ exactly when attempts stop early and
 * a reader should see both (IMPLEMENTATION-NOTES).
 */
import { quantileSorted } from 'simple-statistics';

export type AttemptOutcome = 'success' | 'failure' | 'error';

export interface AttemptRecord {
  learner: string;
  taskId: string;
  /** The task's template, or null when it has none. */
  template: string | null;
  /** 1-based. */
  attempt: number;
  outcome: AttemptOutcome;
  /** The reward in [0, 1]; null when the reward function threw. */
  reward: number | null;
  steps: number;
  /** Model calls of the attempt, the policy's and every learner's, counted at the model port. */
  modelCalls: number;
  promptTokens: number;
  completionTokens: number;
  /** The learning layer's decision latency at each step, in ms. */
  decisionLatenciesMs: number[];
  durationMs: number;
  /** Error message when outcome is 'error' (or the episode itself failed). */
  error: string | null;
  /** The instruction the agent was given and its final message, for the JSON report. */
  instruction: string;
  answer: string | null;
  /** The executed actions in semantic form, with "→ error code" when one failed. */
  actions: string[];
  /** Proposals the policy made (bench/cost-metrics.ts); absent in older reports. */
  policyCalls?: number;
  /** Steps replayed from a learned procedure, and where and why the replay fell back (null: it did not). */
  replayedSteps?: number;
  replayFallback?: string | null;
  /** 1-based instance of the task within its template, in run order. */
  instance?: number;
  /** A teacher taught this attempt (`--teach`). */
  taught?: boolean;
  /** Without a done oracle (`--no-oracle`): whether the agent ended the task itself, and the steps it took after the goal. */
  ending?: { byAgent: boolean; goalAtStep: number | null; stepsAfterGoal: number | null };
  /** What teaching it took (taught attempts only). */
  teaching?: {
    /** Proposals the teacher approved (the person only said yes). */
    asks: number;
    /** Corrections: another candidate picked, an action edited in. */
    picks: number;
    edits: number;
    /** Steps shown in the page (Show me; the demo). */
    shows?: number;
    /** Teacher steps whose element had no ref in the agent's snapshot (the attempt ended there). */
    unteachable: { step: number; selector: string; reason: string }[];
    stopped: boolean;
  };
}

export interface RateSummary {
  tasks: number;
  attempts: number;
  avg: number;
  final: number;
  auc: number;
  /** W-AUC with missing attempts padded to K as failures. */
  wauc: number;
  /** W-AUC over the attempts that ran (k keeps its position, missing k leave numerator and denominator). */
  waucUnpadded: number;
  /** Mean success at attempt k (index k − 1). */
  successByAttempt: number[];
  /** Number of tasks that succeeded at the last attempt. */
  finalSuccesses: number;
  /** Perfect-learner limit: share of tasks solved at least once in attempts 1..K−1 (0 when K = 1). */
  limit: number;
  /** Final / limit; null when the limit is 0. */
  finalOfLimit: number | null;
}

export interface LaterInstances {
  /** Instances after the first of each template with several instances, in run order. */
  tasks: number;
  /** Of those, solved at attempt 1. */
  successes: number;
  rate: number;
}

export interface LearnerSummary extends RateSummary {
  learner: string;
  errors: number;
  missing: number;
  meanSteps: number;
  modelCalls: number;
  promptTokens: number;
  completionTokens: number;
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
  byTemplate: Record<string, RateSummary>;
  laterInstances: LaterInstances;
}

/**
 * Success matrix (task → s_1..s_K) for one learner, padding missing attempts
 * with 0; `ran` marks (1/0) which attempts have a record.
 */
export function successMatrix(records: AttemptRecord[], attempts: number): { matrix: Map<string, number[]>; ran: Map<string, number[]>; missing: number } {
  const matrix = new Map<string, number[]>();
  const seen = new Map<string, Set<number>>();
  for (const r of records) {
    if (!matrix.has(r.taskId)) {
      matrix.set(r.taskId, new Array<number>(attempts).fill(0));
      seen.set(r.taskId, new Set());
    }
    if (r.attempt < 1 || r.attempt > attempts) continue;
    matrix.get(r.taskId)![r.attempt - 1] = r.outcome === 'success' ? 1 : 0;
    seen.get(r.taskId)!.add(r.attempt);
  }
  let missing = 0;
  for (const s of seen.values()) missing += attempts - s.size;
  const ran = new Map<string, number[]>();
  for (const [taskId, s] of seen) ran.set(taskId, Array.from({ length: attempts }, (_, k) => (s.has(k + 1) ? 1 : 0)));
  return { matrix, ran, missing };
}

/** Running success rate R_k = (1/k) Σ_{j≤k} s_j of one task. */
export function runningRate(s: number[]): number[] {
  let sum = 0;
  return s.map((v, i) => (sum += v) / (i + 1));
}

/** AUC of the running success rate of one task, normalized to [0, 1]. */
export function runningAuc(s: number[]): number {
  if (s.length === 0) return 0;
  return runningRate(s).reduce((a, b) => a + b, 0) / s.length;
}

/** The weighted AUC with w_k = k and J_max = 1. */
export function weightedAuc(s: number[]): number {
  if (s.length === 0) return 0;
  let num = 0;
  let den = 0;
  s.forEach((v, i) => {
    num += (i + 1) * v;
    den += i + 1;
  });
  return num / den;
}

export interface WeightedAucBothWays {
  /** Missing attempts count as failures and keep their weight: Σ_k k·s_k / Σ_{k≤K} k. */
  padded: number;
  /** Only attempts that ran carry weight: Σ_{k ran} k·s_k / Σ_{k ran} k (0 when none ran). */
  unpadded: number;
  /** Attempts that ran. */
  ran: number;
}

/**
 * The weighted AUC (w_k = k, J_max = 1) for a session of K attempts where
 * `scores[k−1]` is null when attempt k did not run (the session stopped early).
 * Example: K = 5, scores [0, 1] then stopped → padded 2/15, unpadded 2/3.
 */
export function weightedAucBothWays(scores: readonly (number | null)[], attempts: number): WeightedAucBothWays {
  let num = 0;
  let denRan = 0;
  let denAll = 0;
  let ran = 0;
  for (let k = 1; k <= attempts; k++) {
    denAll += k;
    const v = scores[k - 1];
    if (v === null || v === undefined) continue;
    num += k * v;
    denRan += k;
    ran++;
  }
  return { padded: denAll === 0 ? 0 : num / denAll, unpadded: denRan === 0 ? 0 : num / denRan, ran };
}

const mean = (xs: number[]): number => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

/** `ran` (parallel to rows, 1 = the attempt has a record) defaults to every attempt having run. */
export function rateSummary(rows: number[][], attempts: number, ran?: number[][]): RateSummary {
  const T = rows.length;
  const unpadded = rows.map((s, i) => {
    const mask = ran?.[i];
    return weightedAucBothWays(s.map((v, k) => (mask && mask[k] !== 1 ? null : v)), attempts).unpadded;
  });
  const successByAttempt = Array.from({ length: attempts }, (_, k) => mean(rows.map((s) => s[k] ?? 0)));
  const finalSuccesses = rows.filter((s) => s[attempts - 1] === 1).length;
  const limit = T === 0 ? 0 : rows.filter((s) => s.slice(0, attempts - 1).some((v) => v === 1)).length / T;
  const final = T === 0 ? 0 : finalSuccesses / T;
  return {
    tasks: T,
    attempts,
    avg: mean(rows.map((s) => mean(s))),
    final: T === 0 ? 0 : finalSuccesses / T,
    auc: mean(rows.map(runningAuc)),
    wauc: mean(rows.map(weightedAuc)),
    waucUnpadded: mean(unpadded),
    successByAttempt,
    finalSuccesses,
    limit,
    finalOfLimit: limit === 0 ? null : final / limit,
  };
}

/** Attempt-1 success on every instance of a template after the first one run (records in run order). */
export function laterInstances(records: readonly AttemptRecord[]): LaterInstances {
  const firstOf = new Map<string, string>();
  const instances = new Map<string, Set<string>>();
  for (const r of records) {
    if (r.template === null) continue;
    if (!firstOf.has(r.template)) firstOf.set(r.template, r.taskId);
    instances.set(r.template, (instances.get(r.template) ?? new Set()).add(r.taskId));
  }
  const later = records.filter((r) => r.attempt === 1 && r.template !== null && (instances.get(r.template)?.size ?? 0) > 1 && firstOf.get(r.template) !== r.taskId);
  const successes = later.filter((r) => r.outcome === 'success').length;
  return { tasks: later.length, successes, rate: later.length === 0 ? 0 : successes / later.length };
}

function percentile(sorted: number[], p: number): number | null {
  return sorted.length === 0 ? null : quantileSorted(sorted, p);
}

/** All metrics of one learner over its attempt records. */
export function summarizeLearner(learner: string, records: AttemptRecord[], attempts: number): LearnerSummary {
  const mine = records.filter((r) => r.learner === learner);
  const { matrix, ran, missing } = successMatrix(mine, attempts);
  const templateOf = new Map<string, string>();
  for (const r of mine) templateOf.set(r.taskId, r.template ?? r.taskId);
  const byTemplateRows = new Map<string, { rows: number[][]; ran: number[][] }>();
  for (const [taskId, s] of matrix) {
    const t = templateOf.get(taskId) ?? taskId;
    const group = byTemplateRows.get(t) ?? { rows: [], ran: [] };
    group.rows.push(s);
    group.ran.push(ran.get(taskId) ?? []);
    byTemplateRows.set(t, group);
  }
  const latencies = mine.flatMap((r) => r.decisionLatenciesMs).sort((a, b) => a - b);
  return {
    learner,
    ...rateSummary([...matrix.values()], attempts, [...matrix.keys()].map((id) => ran.get(id) ?? [])),
    errors: mine.filter((r) => r.outcome === 'error').length,
    missing,
    meanSteps: mean(mine.map((r) => r.steps)),
    modelCalls: mine.reduce((n, r) => n + r.modelCalls, 0),
    promptTokens: mine.reduce((n, r) => n + r.promptTokens, 0),
    completionTokens: mine.reduce((n, r) => n + r.completionTokens, 0),
    latencyP50Ms: percentile(latencies, 0.5),
    latencyP95Ms: percentile(latencies, 0.95),
    byTemplate: Object.fromEntries([...byTemplateRows].sort(([a], [b]) => a.localeCompare(b)).map(([t, group]) => [t, rateSummary(group.rows, attempts, group.ran)])),
    laterInstances: laterInstances(mine),
  };
}

export interface TargetCheck {
  name: string;
  met: boolean;
  detail: string;
}

export type TargetSetting = { policy: 'simulated' | 'offline' | 'openai'; memory: 'fresh' | 'carry' };

/**
 * The targets of issue 10, for one learner against the static baseline:
 * - simulated policy: Final ≥ 90% of the learner's perfect-learner limit, and
 *   Final ≥ static Final + 20 points;
 * - offline (and model) policy: Final ≥ static Final + 15 points;
 * - --memory carry: later instances ≥ static's + 10 points;
 * - always: no template more than one task below static (at the last attempt).
 */
export function checkTargets(learner: LearnerSummary, baseline: LearnerSummary, setting: TargetSetting = { policy: 'simulated', memory: 'fresh' }): TargetCheck[] {
  const pts = (x: number) => (x * 100).toFixed(1);
  const worst = Object.entries(baseline.byTemplate).map(([t, b]) => {
    const l = learner.byTemplate[t];
    return { template: t, deficit: b.finalSuccesses - (l?.finalSuccesses ?? 0) };
  }).sort((a, b) => b.deficit - a.deficit)[0];
  const checks: TargetCheck[] = [];
  if (setting.memory === 'carry') {
    const l = learner.laterInstances, b = baseline.laterInstances;
    checks.push({
      name: 'Later instances ≥ static + 10 points',
      met: l.tasks > 0 && l.rate >= b.rate + 0.1 - 1e-9,
      detail: `${pts(l.rate)} (${l.successes}/${l.tasks}) vs ${pts(b.rate)} + 10`,
    });
  } else if (setting.policy === 'simulated') {
    checks.push({
      name: 'Final ≥ 90% of its perfect-learner limit',
      met: learner.limit > 0 && learner.final >= 0.9 * learner.limit - 1e-9,
      detail: `${pts(learner.final)} vs 0.9 × ${pts(learner.limit)} = ${pts(0.9 * learner.limit)}`,
    });
    checks.push({
      name: 'Final ≥ static Final + 20 points',
      met: learner.final >= baseline.final + 0.2 - 1e-9,
      detail: `${pts(learner.final)} vs ${pts(baseline.final)} + 20`,
    });
  } else {
    checks.push({
      name: 'Final ≥ static Final + 15 points',
      met: learner.final >= baseline.final + 0.15 - 1e-9,
      detail: `${pts(learner.final)} vs ${pts(baseline.final)} + 15`,
    });
  }
  checks.push({
    name: 'No template more than one task below static',
    met: worst === undefined || worst.deficit <= 1,
    detail: worst === undefined ? 'no templates' : `worst: ${worst.template} (${worst.deficit} task${worst.deficit === 1 ? '' : 's'} below static)`,
  });
  return checks;
}
