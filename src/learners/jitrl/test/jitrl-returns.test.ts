import { describe, expect, it } from 'vitest';
import { discountedReturns, returnOf } from '../core/returns.ts';

describe('discounted returns (Eq. 3)', () => {
  it('G_t = Σ γ^(u−t) r_u with the web γ = 0.1', () => {
    const g = discountedReturns([0.2, 0, -0.25, 1], 0.1);
    expect(g[3]).toBeCloseTo(1, 15);
    expect(g[2]).toBeCloseTo(-0.25 + 0.1, 15);
    expect(g[1]).toBeCloseTo(0 + 0.1 * -0.15, 15);
    expect(g[0]).toBeCloseTo(0.2 + 0.1 * -0.015, 15);
  });
  it('γ = 1 sums, γ = 0 keeps only the step reward, empty stays empty', () => {
    expect(discountedReturns([1, 2, 3], 1)).toEqual([6, 5, 3]);
    expect(discountedReturns([1, 2, 3], 0)).toEqual([1, 2, 3]);
    expect(discountedReturns([], 0.5)).toEqual([]);
  });
  it('returnOf recomputes G from a transition\'s future rewards with the γ given now', () => {
    expect(returnOf({ futureRewards: [1, 2, 4] }, 0.5)).toBe(1 + 1 + 1);
    expect(returnOf({ futureRewards: [1, 2, 4] }, 0.1)).toBeCloseTo(1.24, 15);
    expect(returnOf({ futureRewards: [] }, 0.1)).toBe(0);
  });
});
