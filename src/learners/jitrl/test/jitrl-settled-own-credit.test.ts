// Issue 35, no teacher: a task found at attempt 4 and lost at attempt 5. The
// right first step was not settled because settling read its return G, which
// a later detour and an earlier unblamed failure had pulled below 0.5. Settling
// now reads the step's own credit r_t, over the rows that rate the step.
import { describe, expect, it } from 'vitest';
import { estimateValues, SETTLED_RETURN, type EstimateInput } from '../core/estimate-values.ts';
import { returnOf } from '../core/returns.ts';
import type { Neighbour } from '../core/transition.ts';
import { DEFAULT_JITRL } from '../core/settings.ts';
import { click, pageOf, scriptedRandom, transition } from './jitrl-helpers.ts';

const SETTINGS = 'click(<link "Settings">)';
const HELP = 'click(<link "Help centre">)';
const page = pageOf([
  { ref: '1', role: 'link', name: 'Settings' },
  { ref: '2', role: 'link', name: 'Help centre' },
]);
const input = (neighbours: Neighbour[]): EstimateInput => ({
  candidates: page.propose([{ action: click('2'), logit: Math.log(0.6) }, { action: click('1'), logit: Math.log(0.4) }]),
  neighbours,
  ...page,
  settings: DEFAULT_JITRL,
  random: scriptedRandom(0.9),
});
/** A row of this very state (similarity 1) whose rewards from this step on are `future` (r_t first). */
const row = (id: string, action: string, future: number[]): Neighbour => {
  const t = transition({ id, action, reward: future[0]!, futureRewards: future });
  return { transition: t, similarity: 1, ret: returnOf(t, DEFAULT_JITRL.gamma) };
};
const settledOf = (neighbours: Neighbour[], action: string) => estimateValues(input(neighbours)).candidates.find((c) => c.semantic === action)!.settled;

// The success of attempt 4: Settings (0.5, on the path), a detour and its undoing
// (−0.5 each, wasted), three more steps on the path (0.5) and the last (1).
const success = row('a4:0', SETTINGS, [0.5, -0.5, -0.5, 0.5, 0.5, 0.5, 1]);
// Attempt 3 took Settings here too and failed at the step limit; the credit blamed
// a later step (−1), not this one (r_t = 0).
const unblamed = row('a3:0', SETTINGS, [0, -1]);

describe('settled: the step\'s own credit, not the return of the steps after it', () => {
  it('a right step followed by a detour on a success path is settled (its G is 0.4456)', () => {
    // G = 0.5 − 0.1·0.5 − 0.01·0.5 + 0.001·0.5 + 0.0001·0.5 + 0.00001·0.5 + 0.000001·1 = 0.445556
    expect(success.ret).toBeCloseTo(0.445556, 6);
    expect(success.ret).toBeLessThan(SETTLED_RETURN);
    expect(settledOf([success], SETTINGS)).toBe(true);
  });

  it('a failure that did not blame the step leaves it settled; the G mean would be 0.1728', () => {
    // G of the unblamed row: 0 + 0.1·(−1) = −0.1; mean with the success (−0.1 + 0.445556) / 2 = 0.172778
    expect((unblamed.ret + success.ret) / 2).toBeCloseTo(0.172778, 6);
    expect(settledOf([unblamed, success], SETTINGS)).toBe(true);
    // Help centre was never rated here: not settled
    expect(settledOf([unblamed, success], HELP)).toBeUndefined();
  });

  it('a failure blamed on the step unsettles it: mean r_t (0.5 − 1) / 2 = −0.25', () => {
    expect(settledOf([success, row('a5:0', SETTINGS, [-1])], SETTINGS)).toBeUndefined();
  });

  it('a wasted step on a success path is not settled: r_t = −0.5', () => {
    expect(settledOf([row('a4:1', SETTINGS, [-0.5, 0.5, 1])], SETTINGS)).toBeUndefined();
  });

  it('rows that never rated the step settle nothing: r_t = 0 only', () => {
    expect(settledOf([unblamed], SETTINGS)).toBeUndefined();
  });
});
