import { describe, expect, it } from 'vitest';
import { selectByUcb } from '../core/ucb.ts';

// Every expected value below is worked out by hand from
// UCB = μ̂/S + c·sqrt(ln(N + 1) / (n + 1)).
describe('EvoTest UCB selection', () => {
  it('tries an untried child after a success: equal means, the larger bonus wins', () => {
    // N = 1. Parent: μ̂ = 1, n = 1 → 1 + sqrt(ln 2 / 2) = 1 + 0.588705 = 1.588705.
    // Children: prior 1, n = 0 → 1 + sqrt(ln 2) = 1 + 0.832555 = 1.832555; the first child wins the tie.
    const choice = selectByUcb(
      [{ id: 'p', scores: [1], prior: null }, { id: 'a', scores: [], prior: 1 }, { id: 'b', scores: [], prior: 1 }],
      { exploration: 1, totalEpisodes: 1 },
    );
    expect(choice.id).toBe('a');
    expect(choice.rows.map((r) => Number(r.ucb.toFixed(6)))).toEqual([1.588705, 1.832555, 1.832555]);
  });

  it('normalized scores explore where raw points are greedy', () => {
    // N = 5. Parent: μ̂ = 0.65, n = 4; child: μ̂ = 0.55, n = 1.
    // Normalized: parent 0.65 + sqrt(ln 6 / 5) = 0.65 + 0.598626 = 1.248625;
    //             child 0.55 + sqrt(ln 6 / 2) = 0.55 + 0.946509 = 1.496509 → the child.
    const normalized = selectByUcb(
      [{ id: 'p', scores: [0.7, 0.6, 0.7, 0.6], prior: null }, { id: 'c', scores: [0.55], prior: 0.65 }],
      { exploration: 1, totalEpisodes: 5 },
    );
    expect(normalized.id).toBe('c');
    expect(normalized.rows.map((r) => Number(r.ucb.toFixed(6)))).toEqual([1.248625, 1.496509]);
    // The same games in raw points, unscaled (the authors' code): 65.598626 vs 55.946509 → greedy.
    const raw = selectByUcb(
      [{ id: 'p', scores: [70, 60, 70, 60], prior: null }, { id: 'c', scores: [55], prior: 65 }],
      { exploration: 1, totalEpisodes: 5, maxScore: 1 },
    );
    expect(raw.id).toBe('p');
    // With the right scale (S = 100) the raw points give the normalized choice back.
    expect(selectByUcb(
      [{ id: 'p', scores: [70, 60, 70, 60], prior: null }, { id: 'c', scores: [55], prior: 65 }],
      { exploration: 1, totalEpisodes: 5, maxScore: 100 },
    ).id).toBe('c');
  });

  it('falls back to the parent once a lucky child regresses', () => {
    const parent = { id: 'p', scores: [1, 0, 1, 0], prior: null };
    // After the lucky run: N = 5; parent 0.5 + 0.598626 = 1.098626; child 1 + 0.946509 = 1.946509.
    expect(selectByUcb([parent, { id: 'c', scores: [1], prior: 0.5 }], { exploration: 1, totalEpisodes: 5 }).id).toBe('c');
    // One failure: N = 6; parent 0.5 + sqrt(ln 7 / 5) = 1.123845; child 0.5 + sqrt(ln 7 / 3) = 1.305380.
    const second = selectByUcb([parent, { id: 'c', scores: [1, 0], prior: 0.5 }], { exploration: 1, totalEpisodes: 6 });
    expect(second.id).toBe('c');
    expect(second.rows.map((r) => Number(r.ucb.toFixed(6)))).toEqual([1.123845, 1.30538]);
    // Two failures: N = 7; parent 0.5 + sqrt(ln 8 / 5) = 1.144894; child 1/3 + sqrt(ln 8 / 4) = 1.054347 → the parent.
    const third = selectByUcb([parent, { id: 'c', scores: [1, 0, 0], prior: 0.5 }], { exploration: 1, totalEpisodes: 7 });
    expect(third.id).toBe('p');
    expect(third.rows.map((r) => Number(r.ucb.toFixed(6)))).toEqual([1.144894, 1.054347]);
  });

  it('with c = 0 it is greedy and a tie goes to the configuration with more runs', () => {
    // Means 0.5 and 0.5: the parent (4 runs) beats the child (2 runs).
    expect(selectByUcb([{ id: 'c', scores: [1, 0], prior: null }, { id: 'p', scores: [1, 0, 1, 0], prior: null }], { exploration: 0, totalEpisodes: 6 }).id).toBe('p');
  });

  it('refuses an empty pool', () => {
    expect(() => selectByUcb([], { exploration: 1, totalEpisodes: 0 })).toThrow(/at least one/);
  });
});
