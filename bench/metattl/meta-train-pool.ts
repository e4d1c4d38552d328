/**
 * Meta-TTL Algorithm 2's bookkeeping, pure: the per-task expert pool (the best
 * strategy found so far for each validation task, as in GEPA's per-task
 * candidate tracking), parent sampling, and the final selection (§3.3 "Expert
 * Selection", Appendix A: mean validation score, or mean per-task z-score when
 * task scales differ).
 */

export interface MetaCandidate {
  id: string;
  strategy: string;
  parentId: string | null;
  /** The iteration that proposed it (0 for the seed). */
  iteration: number;
  /** W-AUC (padded to K) per validation task, once it reached global validation; null before. Pool and selection use it. */
  val: Record<string, number> | null;
  /** The same sessions' W-AUC over the attempts that ran (reported beside `val`). */
  valUnpadded: Record<string, number> | null;
}

export interface PoolEntry {
  candidateId: string;
  score: number;
}

/** Validation task id → its expert. */
export type ExpertPool = Record<string, PoolEntry>;

/** The pool after the seed φ0 was scored on every validation task (Algorithm 2, line 1). */
export function initialPool(seed: MetaCandidate, valTasks: readonly string[]): ExpertPool {
  return Object.fromEntries(valTasks.map((h) => {
    const score = seed.val?.[h];
    if (score === undefined) throw new Error(`the seed has no validation score on ${h}`);
    return [h, { candidateId: seed.id, score }];
  }));
}

/**
 * Algorithm 2 lines 11–16: the candidate replaces the expert of every task on
 * which it sets a new best (strictly greater). Returns the new pool and the
 * tasks it took over.
 */
export function updatePool(pool: ExpertPool, candidate: MetaCandidate): { pool: ExpertPool; won: string[] } {
  if (!candidate.val) throw new Error(`${candidate.id} has not been validated`);
  const next: ExpertPool = { ...pool };
  const won: string[] = [];
  for (const [h, entry] of Object.entries(pool)) {
    const s = candidate.val[h];
    if (s !== undefined && s > entry.score) {
      next[h] = { candidateId: candidate.id, score: s };
      won.push(h);
    }
  }
  return { pool: next, won };
}

/**
 * ϕ_parent ∼ P (line 3): one pool entry uniformly, in validation-task order, so
 * a strategy that is the expert of more tasks is drawn more often.
 */
export function sampleParent(pool: ExpertPool, valTasks: readonly string[], u: number): string {
  const entries = valTasks.map((h) => pool[h]).filter((e): e is PoolEntry => e !== undefined);
  if (entries.length === 0) throw new Error('the expert pool is empty');
  return entries[Math.min(entries.length - 1, Math.floor(u * entries.length))]!.candidateId;
}

export type SelectionMode = 'mean' | 'z';

export interface SelectionRow {
  candidateId: string;
  meanScore: number;
  /** Mean per-task z-score (0 when no task varies). */
  meanZ: number;
}

export interface Selection {
  selectedId: string;
  mode: SelectionMode;
  /** Every distinct expert of the pool, best first under `mode`. */
  rows: SelectionRow[];
  /** μ_g and σ_g per task over every candidate that reached global validation. */
  taskStats: Record<string, { mean: number; sd: number }>;
}

const avg = (xs: number[]): number => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

/**
 * SelectExpert(P) (line 19). Candidates are the distinct experts of the pool,
 * each judged on its whole validation row. For 'z', μ and σ (population SD) of
 * each task come from every candidate that reached global validation
 * (Appendix A); a task with σ = 0 tells candidates nothing and adds 0.
 * Ties go to the earlier candidate.
 */
export function selectExpert(pool: ExpertPool, candidates: readonly MetaCandidate[], valTasks: readonly string[], mode: SelectionMode): Selection {
  const validated = candidates.filter((c) => c.val !== null);
  const taskStats: Selection['taskStats'] = {};
  for (const h of valTasks) {
    const xs = validated.map((c) => c.val![h]).filter((x): x is number => x !== undefined);
    const mean = avg(xs);
    taskStats[h] = { mean, sd: Math.sqrt(avg(xs.map((x) => (x - mean) ** 2))) };
  }
  const order = new Map(candidates.map((c, i) => [c.id, i]));
  const expertIds = [...new Set(valTasks.map((h) => pool[h]?.candidateId).filter((id): id is string => id !== undefined))];
  const rows = expertIds.map((id): SelectionRow => {
    const c = candidates.find((x) => x.id === id);
    if (!c?.val) throw new Error(`expert ${id} has no validation scores`);
    const scores = valTasks.map((h) => c.val![h] ?? 0);
    const zs = valTasks.map((h, i) => {
      const { mean, sd } = taskStats[h]!;
      return sd > 0 ? (scores[i]! - mean) / sd : 0;
    });
    return { candidateId: id, meanScore: avg(scores), meanZ: avg(zs) };
  });
  const key = (r: SelectionRow) => (mode === 'z' ? r.meanZ : r.meanScore);
  rows.sort((a, b) => key(b) - key(a) || (order.get(a.candidateId)! - order.get(b.candidateId)!));
  if (rows.length === 0) throw new Error('the expert pool is empty');
  return { selectedId: rows[0]!.candidateId, mode, rows, taskStats };
}
