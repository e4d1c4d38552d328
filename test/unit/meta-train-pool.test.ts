import { describe, expect, it } from 'vitest';
import { initialPool, sampleParent, selectExpert, updatePool, type MetaCandidate } from '../../bench/metattl/meta-train-pool.ts';

const cand = (id: string, val: Record<string, number> | null, iteration = 1): MetaCandidate => ({ id, strategy: `strategy ${id}`, parentId: null, iteration, val, valUnpadded: val });
const VAL = ['D', 'Z', 'T'];

describe('expert pool (Meta-TTL Algorithm 2, lines 11–16)', () => {
  const seed = cand('seed', { D: 0.4, Z: 0.1, T: 0.2 }, 0);
  it('starts with the seed as the expert of every validation task', () => {
    expect(initialPool(seed, VAL)).toEqual({
      D: { candidateId: 'seed', score: 0.4 }, Z: { candidateId: 'seed', score: 0.1 }, T: { candidateId: 'seed', score: 0.2 },
    });
  });
  it('a candidate replaces the expert only where it sets a strictly new best', () => {
    const p0 = initialPool(seed, VAL);
    // P5 beats D (0.6 > 0.4), beats Z (0.11 > 0.1), ties T (0.2 = 0.2: no).
    const { pool: p1, won: w1 } = updatePool(p0, cand('P5', { D: 0.6, Z: 0.11, T: 0.2 }));
    expect(w1).toEqual(['D', 'Z']);
    expect(p1).toEqual({ D: { candidateId: 'P5', score: 0.6 }, Z: { candidateId: 'P5', score: 0.11 }, T: { candidateId: 'seed', score: 0.2 } });
    // P11 loses D (0.45 < 0.6), wins Z (0.14 > 0.11) and T (0.22 > 0.2).
    const { pool: p2, won: w2 } = updatePool(p1, cand('P11', { D: 0.45, Z: 0.14, T: 0.22 }));
    expect(w2).toEqual(['Z', 'T']);
    expect(p2).toEqual({ D: { candidateId: 'P5', score: 0.6 }, Z: { candidateId: 'P11', score: 0.14 }, T: { candidateId: 'P11', score: 0.22 } });
    // The old pool is not modified.
    expect(p0['D']!.candidateId).toBe('seed');
  });
  it('refuses a candidate that never reached global validation', () => {
    expect(() => updatePool(initialPool(seed, VAL), cand('x', null))).toThrow(/not been validated/);
  });
  it('samples parents uniformly over pool entries, so an expert of two tasks is drawn twice as often', () => {
    const pool = { D: { candidateId: 'P5', score: 0.6 }, Z: { candidateId: 'P11', score: 0.14 }, T: { candidateId: 'P11', score: 0.22 } };
    expect([0, 0.33, 0.34, 0.66, 0.67, 0.999].map((u) => sampleParent(pool, VAL, u))).toEqual(['P5', 'P5', 'P11', 'P11', 'P11', 'P11']);
  });
});

describe('final selection (§3.3, Appendix A)', () => {
  // Pool after the updates above: D → P5, Z and T → P11.
  const seed = cand('seed', { D: 0.4, Z: 0.1, T: 0.2 }, 0);
  const p5 = cand('P5', { D: 0.6, Z: 0.11, T: 0.2 });
  const p11 = cand('P11', { D: 0.45, Z: 0.14, T: 0.22 });
  const pool = { D: { candidateId: 'P5', score: 0.6 }, Z: { candidateId: 'P11', score: 0.14 }, T: { candidateId: 'P11', score: 0.22 } };
  const all = [seed, p5, p11];

  it('by mean validation score picks the raw-average winner', () => {
    const s = selectExpert(pool, all, VAL, 'mean');
    expect(s.selectedId).toBe('P5');
    expect(s.rows.map((r) => r.candidateId)).toEqual(['P5', 'P11']);
    expect(s.rows[0]!.meanScore).toBeCloseTo(0.91 / 3, 12); // (0.6 + 0.11 + 0.2) / 3
    expect(s.rows[1]!.meanScore).toBeCloseTo(0.81 / 3, 12); // (0.45 + 0.14 + 0.22) / 3
  });

  it('by per-task z-score picks the uniformly strong candidate', () => {
    // Over seed, P5, P11 (population SD):
    //   D deviations (−5, 7, −2)/60  → σ = √26/60;  z(P5) = 7/√26,  z(P11) = −2/√26
    //   Z deviations (−5, −2, 7)/300 → σ = √26/300; z(P5) = −2/√26, z(P11) = 7/√26
    //   T deviations (−1, −1, 2)/150 → σ = √2/150;  z(P5) = −1/√2,  z(P11) = √2
    const s = selectExpert(pool, all, VAL, 'z');
    expect(s.selectedId).toBe('P11');
    expect(s.taskStats['D']!.sd).toBeCloseTo(Math.sqrt(26) / 60, 12);
    expect(s.taskStats['T']!.mean).toBeCloseTo(0.62 / 3, 12);
    const byId = Object.fromEntries(s.rows.map((r) => [r.candidateId, r.meanZ]));
    expect(byId['P5']).toBeCloseTo((5 / Math.sqrt(26) - 1 / Math.SQRT2) / 3, 12);
    expect(byId['P11']).toBeCloseTo((5 / Math.sqrt(26) + Math.SQRT2) / 3, 12);
  });

  it('a task where every candidate scored the same adds 0 to every z-score', () => {
    const flat = [cand('a', { X: 1, Y: 0.2 }), cand('b', { X: 1, Y: 0.6 })];
    const s = selectExpert({ X: { candidateId: 'a', score: 1 }, Y: { candidateId: 'b', score: 0.6 } }, flat, ['X', 'Y'], 'z');
    // Y: mean 0.4, σ 0.2 → z(a) = −1, z(b) = 1; X adds 0 → means −0.5 and 0.5.
    expect(s.rows.map((r) => r.candidateId)).toEqual(['b', 'a']);
    expect(s.rows[0]!.meanScore).toBeCloseTo(0.8, 12);
    expect(s.rows[0]!.meanZ).toBeCloseTo(0.5, 12);
    expect(s.rows[1]!.meanZ).toBeCloseTo(-0.5, 12);
    expect(s.taskStats['X']).toEqual({ mean: 1, sd: 0 });
  });

  it('breaks ties in favour of the earlier candidate (the seed when nothing beat it)', () => {
    const a = cand('seed', { X: 0.5 }, 0);
    const b = cand('later', { X: 0.5 });
    expect(selectExpert({ X: { candidateId: 'seed', score: 0.5 } }, [a, b], ['X'], 'mean').selectedId).toBe('seed');
    const pool2 = { X: { candidateId: 'later', score: 0.5 }, Y: { candidateId: 'seed', score: 0.5 } };
    const c = [cand('seed', { X: 0.5, Y: 0.5 }, 0), cand('later', { X: 0.5, Y: 0.5 })];
    expect(selectExpert(pool2, c, ['X', 'Y'], 'mean').selectedId).toBe('seed');
  });
});
