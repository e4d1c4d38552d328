// Issue 10, items 3–5: Softmax(z′/T) sampling, barred and exploited
// candidates, page keys, loops and per-step credit without a model — all pure.
import { describe, expect, it } from 'vitest';
import type { CandidateRecord, StepRecord } from '../../src/core/episode/episode.ts';
import { finishProposal } from '../../src/core/agent/proposal-stage.ts';
import { click, stepRecord } from '../../src/learners/jitrl/test/jitrl-helpers.ts';
import { testCandidate } from '../support/candidate.ts';
import { chooseProposal, rankForProposal, sampleIndex, samplingProbabilities } from '../../src/core/agent/proposal-choice.ts';
import { detectLoop } from '../../src/core/agent/loops.ts';
import { stepEvidence, blameOnFailure } from '../../src/core/credit/step-credit.ts';
import { pageKeyOf } from '../../src/core/page/page-key.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';

const rec = (semantic: string, adjustedLogit: number, p: Partial<CandidateRecord> = {}): CandidateRecord => ({
  action: semantic, semantic, origin: 'model', baseLogit: adjustedLogit, adjustedLogit, baseProb: 0, adjustedProb: 0, ...p,
});
const L = [Math.log(0.5), Math.log(0.3), Math.log(0.2)];

describe('Softmax(z′/T) sampling (Algorithm 1, "Sample a ~ Softmax(z′)")', () => {
  it('inverts the cumulative distribution with one uniform draw', () => {
    expect(samplingProbabilities(L, 1).map((p) => +p.toFixed(12))).toEqual([0.5, 0.3, 0.2]);
    expect([0, 0.49, 0.5, 0.79, 0.81, 0.999].map((u) => sampleIndex(L, 1, u))).toEqual([0, 0, 1, 1, 2, 2]);
  });

  it('T sharpens (T < 1) or flattens (T > 1); T = 0 is argmax', () => {
    // p ∝ (0.5, 0.3, 0.2)^2 = 0.25, 0.09, 0.04 over 0.38
    const p = samplingProbabilities(L, 0.5);
    expect(p[0]).toBeCloseTo(0.25 / 0.38, 12);
    expect(p[1]).toBeCloseTo(0.09 / 0.38, 12);
    expect(sampleIndex(L, 0.5, 0.65)).toBe(0);
    expect(sampleIndex(L, 0.5, 0.66)).toBe(1);
    expect(samplingProbabilities(L, 0)).toEqual([1, 0, 0]);
    expect(sampleIndex(L, 0, 0.99)).toBe(0);
  });

  it('chooseProposal samples in sampling mode and reports the probability; argmax mode takes the top', () => {
    const records = [rec('a', L[0]!), rec('b', L[1]!), rec('c', L[2]!)];
    expect(chooseProposal(records, { mode: 'sampling', temperature: 1, u: 0.6 })).toEqual({ index: 1, how: 'sampled', probability: expect.closeTo(0.3, 12) });
    expect(chooseProposal(records, { mode: 'argmax', temperature: 1, u: 0.6 })).toEqual({ index: 0, how: 'argmax', probability: 1 });
  });

  it('never proposes a barred candidate while an unbarred one exists, whatever the draw', () => {
    const records = [rec('a', 5, { barred: 'rejected' }), rec('b', L[1]!), rec('c', L[2]!, { barred: 'loop' })];
    expect(rankForProposal(records)).toEqual([1, 0, 2]);
    for (let u = 0; u < 1; u += 0.01) expect(chooseProposal(records, { mode: 'sampling', temperature: 1, u }).index).toBe(1);
    expect(chooseProposal(records, { mode: 'argmax', temperature: 1, u: 0 }).index).toBe(1);
    // everything barred: the least bad by z′ is still proposable (the person decides)
    const all = records.map((r) => ({ ...r, barred: 'failed' as const }));
    expect(chooseProposal(all, { mode: 'argmax', temperature: 1, u: 0 }).index).toBe(0);
  });

  it('exploits a settled candidate (what worked in this very state), whatever the draw', () => {
    const records = [rec('a', 0), rec('b', -1, { settled: true }), rec('c', -2, { settled: true, barred: 'loop' })];
    for (const u of [0, 0.3, 0.99]) expect(chooseProposal(records, { mode: 'sampling', temperature: 1, u })).toEqual({ index: 1, how: 'exploited', probability: 1 });
    const unsure = [rec('a', 0), rec('b', -1)];
    expect(chooseProposal(unsure, { mode: 'sampling', temperature: 1, u: 0.99 }).how).toBe('sampled');
  });
});

const node = (p: Partial<SnapshotNode>): SnapshotNode => ({ ref: null, kind: 'interactive', role: 'button', name: '', states: {}, depth: 0, inViewport: true, ...p });
const obs = (url: string, nodes: SnapshotNode[]): PageObservation => ({
  url, title: 't', nodes, focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [], scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 0,
});

describe('finishProposal: exploitation repeats what worked once', () => {
  const step = (index: number, url: string, semantic: string) => stepRecord({
    index, url, regUrl: '/item/ID', pageKey: `k${index}`,
    chosen: { action: 'click([1])', semantic, decision: 'auto' },
    candidates: [rec(semantic, 0)],
  });
  const settledAdd = () => [testCandidate({ semantic: 'click(<button "Add">)', adjustedLogit: -0.5, settled: true }, click('1')), testCandidate({ semantic: 'click(<link "Basket">)', adjustedLogit: -1 }, click('2'))];
  const finish = (earlier: StepRecord[], url: string) => finishProposal({
    candidates: settledAdd(), earlier, pageKey: 'now', url,
    selection: { mode: 'sampling', temperature: 1 }, drawKey: 'seed-with-u-near-zero-0',
  });

  it('takes a settled action outright on arrival, but not again on the page where it was just done', () => {
    const arrived = finish([step(0, 'http://shop.test/', 'click(<link "Item">)')], 'http://shop.test/item/7');
    expect(arrived.selection.how).toBe('exploited');
    expect(arrived.candidates[0]!.semantic).toBe('click(<button "Add">)');
    // The same click left the effective state as it was: it is settled again, but it was done here already.
    const again = finish([step(0, 'http://shop.test/', 'click(<link "Item">)'), step(1, 'http://shop.test/item/7#top', 'click(<button "Add">)')], 'http://shop.test/item/7');
    expect(again.selection.how).toBe('sampled');
    expect(again.candidates.every((c) => c.settled === undefined)).toBe(true);
    expect(again.notes).toEqual(['not repeated outright: click(<button "Add">) was already done on this page']);
    // Done on this page before leaving it and coming back: a new arrival, settled again.
    const back = finish([
      step(0, 'http://shop.test/item/7', 'click(<button "Add">)'),
      step(1, 'http://shop.test/item/7', 'click(<link "Home">)'),
      step(2, 'http://shop.test/', 'click(<link "Item">)'),
    ], 'http://shop.test/item/7');
    expect(back.selection.how).toBe('exploited');
  });
});

describe('pageKeyOf: what the page shows, not where focus or the viewport is', () => {
  const base = [node({ ref: '1', role: 'textbox', name: 'Email', value: '' }), node({ kind: 'text', role: 'text', name: 'Cart: 0 items' })];
  it('ignores focus, viewport, refs, scroll and the fragment', () => {
    const k = pageKeyOf(obs('http://x.test/a#top', base));
    expect(pageKeyOf(obs('http://x.test/a', base.map((n) => ({ ...n, ref: n.ref ? '9' : null, states: { ...n.states, focused: true }, inViewport: false }))))).toBe(k);
  });
  it('changes with a value, a text, a checked state or the URL', () => {
    const k = pageKeyOf(obs('http://x.test/a', base));
    expect(pageKeyOf(obs('http://x.test/a', [{ ...base[0]!, value: 'a@b.c' }, base[1]!]))).not.toBe(k);
    expect(pageKeyOf(obs('http://x.test/a', [base[0]!, { ...base[1]!, name: 'Cart: 1 item' }]))).not.toBe(k);
    expect(pageKeyOf(obs('http://x.test/a', [{ ...base[0]!, states: { checked: true } }, base[1]!]))).not.toBe(k);
    expect(pageKeyOf(obs('http://x.test/b', base))).not.toBe(k);
  });
});

describe('detectLoop: back at a page state seen earlier in the episode', () => {
  const visits = [{ pageKey: 'A', action: 'click(<link "Mug">)' }, { pageKey: 'B', action: 'click(<link "Shop">)' }];
  it('A → B → A: the actions taken at A before are the loop', () => {
    expect(detectLoop(visits, 'A')).toEqual({ since: 0, length: 2, repeated: ['click(<link "Mug">)'] });
  });
  it('no loop on a new state, or when keys are unknown', () => {
    expect(detectLoop(visits, 'C')).toBeNull();
    expect(detectLoop([{ pageKey: null, action: 'x' }], 'A')).toBeNull();
  });
  it('A → A (nothing changed) is a loop of length 1; every earlier action at A counts', () => {
    expect(detectLoop([...visits, { pageKey: 'A', action: 'click(<link "Cup">)' }], 'A')).toEqual({ since: 2, length: 1, repeated: ['click(<link "Mug">)', 'click(<link "Cup">)'] });
  });
});

describe('per-step evidence and blame (credit without a model)', () => {
  const s = (pageKey: string | null, action = 'click(<button "x">)', ok = true, margin: number | null = 1) => ({ pageKey, action, ok, margin });
  it('flags steps that changed nothing, undid an earlier step (the whole loop), or failed to run', () => {
    //        0: A→B     1: B→B (nothing)  2: B→A (undo of 0)  3: A→C   4: C→D (error)  5: D→?
    const steps = [s('A'), s('B'), s('B'), s('A'), s('C', 'click(<button "y">)', false), s('D')];
    expect(stepEvidence(steps)).toEqual(['loop', 'no_change', 'undone', null, 'error', null]);
  });
  it('the answer is never "no change"; unknown keys give no evidence', () => {
    expect(stepEvidence([s('A', 'send_msg_to_user("4")'), s('A')])).toEqual([null, null]);
    expect(stepEvidence([s(null), s(null)])).toEqual([null, null]);
  });
  it('a failure is blamed on the evidence; without any, on the least-sure step (latest on ties); else on nobody', () => {
    expect(blameOnFailure([s('A', 'a', true, 0.2), s('B', 'b', true, 3), s('B', 'c', true, 0.1), s('C')])).toEqual([false, true, false, false]);
    expect(blameOnFailure([s('A', 'a', true, 2), s('B', 'b', true, 0.5), s('C', 'c', true, 0.5), s('D', 'd', true, 4)])).toEqual([false, false, true, false]);
    // A → B → A → C: the undoing step only
    expect(blameOnFailure([s('A'), s('B'), s('A'), s('C')])).toEqual([false, true, false, false]);
    expect(blameOnFailure([s(null, 'a', true, null), s(null, 'b', true, null)])).toBeNull();
  });
  it('the last step taken against the base policy preference (negative margin) before the evidence shares the failure', () => {
    // 0: A→B, the policy's own first choice (margin 2); 1: B→C, sampled below
    // another candidate (margin −1.6); 2: C→D; 3: D→C undoes 2; 4: C→E.
    // Blamed: the undoing step 3 (evidence) and the exploratory step 1; not 0, 2 or 4.
    const steps = [s('A', 'a', true, 2), s('B', 'b', true, -1.6), s('C', 'c', true, 0.5), s('D', 'd', true, 0), s('C', 'e', true, 1)];
    expect(blameOnFailure(steps)).toEqual([false, true, false, true, false]);
    // No page evidence but one exploratory step: that step, not the least-sure of the others.
    expect(blameOnFailure([s('A', 'a', true, 0.1), s('B', 'b', true, -0.3), s('C', 'c', true, 0.05)])).toEqual([false, true, false]);
    // Two explorations before the evidence: only the later one, nearest where things went wrong;
    // one after the evidence (step 4, inside the wander) is not singled out either.
    const twice = [s('A', 'a', true, -0.4), s('B', 'b', true, -1), s('C', 'c', true, 0.5), s('D', 'd', true, 0), s('C', 'e', true, -2), s('F')];
    expect(blameOnFailure(twice)).toEqual([false, true, false, true, false, false]);
  });
});
