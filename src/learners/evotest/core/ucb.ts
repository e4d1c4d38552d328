/**
 * EvoTest's selection rule: UCB over the pool of parent + children
 *
 *   UCB(χ) = μ̃(χ) + c · sqrt( ln(N + 1) / (n(χ) + 1) )
 *
 * μ̂(χ) is the mean episode score of χ (an untried child borrows its parent's
 * mean: a mutation starts as good as what it mutates), n(χ) its number of
 * runs, N the episodes completed in the lineage, c the exploration constant.
 *
 * μ̃ = μ̂ / S, the mean as a fraction of the highest possible score S (J-TTL
 * measures scores the same way). The authors' code adds the bonus to raw game
 * points (tens to hundreds), where a bonus of about 1 never changes a choice:
 * selection is greedy. On the [0, 1] scale the bonus and the means are
 * commensurate, so a child with fewer runs and a slightly lower mean is still
 * tried. (Min–max normalization over the pool would not do: it stretches any
 * gap between two configurations to a full 1 and is greedy again.) N + 1 and
 * n + 1 keep the first choices finite and defined.
 */

export interface UcbEntry {
  id: string;
  /** Scores of this configuration's episodes, in [0, S]. */
  scores: readonly number[];
  /** μ̂ used while the entry has no runs (its parent's mean); null: no evidence (counts as 0). */
  prior: number | null;
}

export interface UcbRow {
  id: string;
  n: number;
  mean: number | null;
  normalized: number;
  bonus: number;
  ucb: number;
}

export interface UcbChoice {
  id: string;
  rows: UcbRow[];
}

export interface UcbOptions {
  /** c, the exploration constant. */
  exploration: number;
  /** N, episodes completed in the lineage. */
  totalEpisodes: number;
  /** S, the highest possible episode score (1 for success-based scores). */
  maxScore?: number;
}

const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;

/**
 * Picks the entry with the highest UCB. Ties go to the entry with more runs
 * (the time-tested one), then to the earlier entry (the pool lists the
 * parent first).
 */
export function selectByUcb(entries: readonly UcbEntry[], options: UcbOptions): UcbChoice {
  if (entries.length === 0) throw new Error('UCB needs at least one configuration in the pool');
  const scale = options.maxScore ?? 1;
  const logN = Math.log(Math.max(0, options.totalEpisodes) + 1);
  const rows: UcbRow[] = entries.map((e) => {
    const m = e.scores.length > 0 ? mean(e.scores) : e.prior;
    const normalized = m === null ? 0 : m / scale;
    const bonus = options.exploration * Math.sqrt(logN / (e.scores.length + 1));
    return { id: e.id, n: e.scores.length, mean: m, normalized, bonus, ucb: normalized + bonus };
  });
  let best = 0;
  for (let i = 1; i < rows.length; i++) {
    const a = rows[i]!;
    const b = rows[best]!;
    if (a.ucb > b.ucb + 1e-12 || (Math.abs(a.ucb - b.ucb) <= 1e-12 && a.n > b.n)) best = i;
  }
  return { id: rows[best]!.id, rows };
}
