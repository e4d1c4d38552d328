import { describe, expect, it } from 'vitest';
import { ACTION_ERROR_REWARD, assignStepRewards, choiceMargin, OUTCOME_SHARE, WASTED_STEP_REWARD } from '../../src/core/credit/rewards.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import { stepEvidence } from '../../src/core/credit/step-credit.ts';
import { stepRecord } from '../../src/learners/jitrl/test/jitrl-helpers.ts';

const settings = DEFAULT_SETTINGS.rewards; // approve 0.2, reject −1, success 1, failure −1, partial 0.3, evaluatorWeight 0.5
const chosen = (decision: 'approved' | 'auto' | 'picked' | 'edited' | 'rejected') => ({ action: 'click([1])', semantic: 'click(<button "Go">)', decision });
const steps = [
  stepRecord({ index: 0, chosen: chosen('approved') }),
  stepRecord({ index: 1, chosen: chosen('auto'), result: { ok: false, code: 'element_gone', message: 'gone' } }),
  stepRecord({ index: 2, chosen: chosen('picked') }),
  stepRecord({ index: 3, chosen: null, result: null }),
];

describe('assignStepRewards', () => {
  it('documents its constants', () => {
    expect(ACTION_ERROR_REWARD).toBe(-0.25);
    expect(OUTCOME_SHARE).toBe(0.5);
  });

  it('person signals + action errors + outcome (full on the last executed step, a share on the others)', () => {
    const out = assignStepRewards({ steps, outcome: 'success', evaluatorScores: null, settings });
    expect(out.source).toBe('person');
    expect(out.rewards[0]).toBeCloseTo(0.2 + 0.5, 15);
    expect(out.rewards[1]).toBeCloseTo(0 - 0.25 + 0.5, 15);
    expect(out.rewards[2]).toBeCloseTo(0.2 + 1, 15);
    expect(out.rewards[3]).toBe(0);
  });

  it('partial and edited', () => {
    const out = assignStepRewards({ steps: [stepRecord({ index: 0, chosen: chosen('edited') }), stepRecord({ index: 1, chosen: chosen('approved') })], outcome: 'partial', evaluatorScores: null, settings });
    expect(out.rewards[0]).toBeCloseTo(0.2 + 0.15, 15);
    expect(out.rewards[1]).toBeCloseTo(0.2 + 0.3, 15);
  });

  it('an all-automatic failure is the task\'s own signal', () => {
    const auto = [stepRecord({ index: 0, chosen: chosen('auto') }), stepRecord({ index: 1, chosen: chosen('auto') })];
    expect(assignStepRewards({ steps: auto, outcome: 'failure', evaluatorScores: null, settings })).toEqual({ rewards: [-0.5, -1], source: 'outcome' });
    expect(assignStepRewards({ steps: auto, outcome: 'stopped', evaluatorScores: null, settings })).toEqual({ rewards: [0, 0], source: 'outcome' });
    expect(assignStepRewards({ steps: auto, outcome: 'error', evaluatorScores: null, settings }).rewards).toEqual([0, 0]);
  });

  it('a chosen step the person rejected gets `reject`, and the outcome goes to the last executed step', () => {
    const s = [stepRecord({ index: 0, chosen: chosen('approved') }), stepRecord({ index: 1, chosen: chosen('rejected'), result: null })];
    const out = assignStepRewards({ steps: s, outcome: 'failure', evaluatorScores: null, settings });
    expect(out.rewards[0]).toBeCloseTo(0.2 - 1, 15);
    expect(out.rewards[1]).toBe(-1);
  });

  it('mixes the evaluator score (−3..+3 → −1..+1, clamped, missing = 0) with weight w', () => {
    const out = assignStepRewards({ steps, outcome: 'success', evaluatorScores: [3, -1.5, 9, 2], settings });
    expect(out.source).toBe('combined');
    expect(out.rewards[0]).toBeCloseTo(0.5 * 0.7 + 0.5 * 1, 15);
    expect(out.rewards[1]).toBeCloseTo(0.5 * 0.25 + 0.5 * -0.5, 15);
    expect(out.rewards[2]).toBeCloseTo(0.5 * 1.2 + 0.5 * 1, 15);
    expect(out.rewards[3]).toBe(0);
    const short = assignStepRewards({ steps, outcome: 'success', evaluatorScores: [3, Number.NaN], settings });
    expect(short.rewards[1]).toBeCloseTo(0.125, 15);
    expect(short.rewards[2]).toBeCloseTo(0.6, 15);
    const only = assignStepRewards({ steps, outcome: 'success', evaluatorScores: [-3, 0, 1.5, 0], settings: { ...settings, evaluatorWeight: 1 } });
    expect(only).toEqual({ rewards: [-1, 0, 0.5, 0], source: 'evaluator' });
  });
});

describe('assignStepRewards: per-step credit from the page (issue 10, item 4)', () => {
  const cand = (semantic: string, baseLogit: number) => ({
    action: semantic, semantic, origin: 'model' as const, baseLogit, adjustedLogit: baseLogit, baseProb: 0, adjustedProb: 0,
    q: null, advantage: null, normAdvantage: null, support: 0, valueKind: 'none' as const,
  });
  const auto = (index: number, pageKey: string, gap: number, ok = true) => stepRecord({
    index, pageKey, chosen: { action: 'click([1])', semantic: `click(<button "s${index}">)`, decision: 'auto' },
    candidates: [cand(`click(<button "s${index}">)`, 0), cand('click(<button "other">)', -gap)],
    result: ok ? { ok: true, navigated: false } : { ok: false, code: 'element_gone', message: 'gone' },
  });

  it('a success credits the steps on its path and penalizes the step that changed nothing', () => {
    // keys A, B, B, C: step 1 left the page as it was
    const out = assignStepRewards({ steps: [auto(0, 'A', 2), auto(1, 'B', 2), auto(2, 'B', 2), auto(3, 'C', 2)], outcome: 'success', evaluatorScores: null, settings });
    expect(out.rewards).toEqual([0.5, WASTED_STEP_REWARD, 0.5, 1]);
    expect(WASTED_STEP_REWARD).toBe(-0.5);
  });

  it('a failure goes to the step that undid an earlier one; the step it undid and the others get nothing', () => {
    // A → B → A → C: step 1 brought the page back to A, undoing step 0, which
    // may have been right (a setting then discarded): 0, as App. G.1.2 scores
    // an action whose effect was immediately undone.
    const out = assignStepRewards({ steps: [auto(0, 'A', 2), auto(1, 'B', 2), auto(2, 'A', 2), auto(3, 'C', 2)], outcome: 'failure', evaluatorScores: null, settings });
    expect(out.rewards).toEqual([0, -1, 0, 0]);
    // on a success the whole loop is wasted
    const won = assignStepRewards({ steps: [auto(0, 'A', 2), auto(1, 'B', 2), auto(2, 'A', 2), auto(3, 'C', 2)], outcome: 'success', evaluatorScores: null, settings });
    expect(won.rewards).toEqual([WASTED_STEP_REWARD, WASTED_STEP_REWARD, 0.5, 1]);
  });

  it('a round trip that came back (A → B → A → B → C): the first step to B is the way, the round is the detour (issue 35)', () => {
    // step 0 went to B; step 1 left B for A (undone: A was seen); step 2 went back to B (undone: B was seen);
    // the attempt went on from B. The way is A → B (step 0) and B → C (step 3); steps 1 and 2 are the round.
    const path = [auto(0, 'A', 2), auto(1, 'B', 2), auto(2, 'A', 2), auto(3, 'B', 2), auto(4, 'C', 2)];
    expect(stepEvidence(path.map((s) => ({ pageKey: s.pageKey ?? null, action: s.chosen!.semantic, ok: true, margin: 2 }))))
      .toEqual([null, 'undone', 'undone', null, null]);
    const won = assignStepRewards({ steps: path, outcome: 'success', evaluatorScores: null, settings });
    // before: step 0 was marked 'loop' too and got −0.5: [−0.5, −0.5, −0.5, 0.5, 1]
    expect(won.rewards).toEqual([0.5, WASTED_STEP_REWARD, WASTED_STEP_REWARD, 0.5, 1]);
    // a failure is blamed as before: the two undoing steps, not step 0
    const lost = assignStepRewards({ steps: path, outcome: 'failure', evaluatorScores: null, settings });
    expect(lost.rewards).toEqual([0, -1, -1, 0, 0]);
  });

  it('a failure judged right after the last step also blames that step; one that ran out of steps does not', () => {
    // A → B → C: no page evidence; the least-sure step is 1 (margin 0.3)
    const steps = [auto(0, 'A', 2), auto(1, 'B', 0.3), auto(2, 'C', 1.5)];
    const judged = assignStepRewards({ steps, outcome: 'failure', evaluatorScores: null, settings, judgedAfterLastStep: true });
    expect(judged.rewards).toEqual([0, -1, -1]);
    const ranOut = assignStepRewards({ steps, outcome: 'failure', evaluatorScores: null, settings, judgedAfterLastStep: false });
    expect(ranOut.rewards).toEqual([0, -1, 0]);
    // a success is unchanged by it
    const won = assignStepRewards({ steps, outcome: 'success', evaluatorScores: null, settings, judgedAfterLastStep: true });
    expect(won.rewards).toEqual([0.5, 0.5, 1]);
  });

  it('a failure with no evidence goes to the least-sure step only', () => {
    const out = assignStepRewards({ steps: [auto(0, 'A', 2), auto(1, 'B', 0.3), auto(2, 'C', 1.5)], outcome: 'failure', evaluatorScores: null, settings });
    expect(out.rewards).toEqual([0, -1, 0]);
    expect(choiceMargin(auto(1, 'B', 0.3))).toBeCloseTo(0.3, 15);
  });
});
