import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimateValues, normalizeAdvantages, NORMALIZATION_EPSILON, type EstimateInput } from '../core/estimate-values.ts';
import { softmax } from '../../../core/learning/shared/softmax.ts';
import type { Neighbour } from '../core/transition.ts';
import type { Candidate } from '../../../core/learning/candidate.ts';
import type { JitrlCandidateEvidence } from '../core/evidence.ts';
import { DEFAULT_JITRL } from '../core/settings.ts';
import { click, pageOf, scriptedRandom, transition } from './jitrl-helpers.ts';

const A = 'click(<button "Blue shirt">)';
const B = 'click(<button "Red shirt">)';
const C = 'click(<link "Size guide">)';
const D = 'click(<button "Wishlist">)';
const E = 'click(<button "Gone">)';
const page = pageOf([
  { ref: '1', role: 'button', name: 'Blue shirt' },
  { ref: '2', role: 'button', name: 'Red shirt' },
  { ref: '3', role: 'link', name: 'Size guide' },
  { ref: '4', role: 'button', name: 'Wishlist' },
]);
const nb = (id: string, action: string, ret: number): Neighbour => ({ transition: transition({ id, action }), similarity: 1, ret });
const zA = Math.log(0.5), zB = Math.log(0.3), zC = Math.log(0.2);
const modelCandidates = [{ action: click('1'), logit: zA, rationale: 'blue first' }, { action: click('2'), logit: zB }, { action: click('3'), logit: zC }];
// V = (1 + 0.5 − 0.5) / 3 = 1/3; Q_A = 0.75, Q_B = −0.5
const neighbours = [nb('n1:0', A, 1), nb('n2:0', A, 0.5), nb('n3:0', B, -0.5)];
const input = (p: Partial<EstimateInput> = {}): EstimateInput => ({
  candidates: page.propose(modelCandidates),
  neighbours,
  ...page,
  settings: { ...DEFAULT_JITRL, advantageFloor: 0 }, // λ 0.05, α 5/3, β 2, max-abs, Eq. 25 exactly
  random: scriptedRandom(0.9),
  ...p,
});
const eps = NORMALIZATION_EPSILON;
/** JitRL's evidence about a candidate (Q, A, Ã, support, kind), under its id. */
const ev = (c: Candidate | undefined): JitrlCandidateEvidence => c!.evidence['jitrl'] as JitrlCandidateEvidence;

describe('estimateValues: known and unseen actions (Eqs. 4–7, 10, 25)', () => {
  it('neutral branch (rand ≥ λ): Q = 0 for the unseen action, max-abs normalization', () => {
    const random = scriptedRandom(0.05); // not < λ
    const out = estimateValues(input({ random }));
    expect(random.calls).toBe(1); // one draw, for the one unseen candidate
    expect(out.v).toBeCloseTo(1 / 3, 15);
    const [a, b, c] = out.candidates;
    const max = 5 / 6 + eps; // |A_B|
    expect(a).toMatchObject({ action: click('1'), semantic: A, origin: 'model', rationale: 'blue first', evidence: { jitrl: { support: 2, valueKind: 'known' } } });
    expect(ev(a).q).toBeCloseTo(0.75, 15);
    expect(ev(a).advantage).toBeCloseTo(5 / 12, 15);
    expect(ev(a).normAdvantage).toBeCloseTo((5 / 12) / max, 15);
    expect(a!.adjustedLogit).toBeCloseTo(zA + 2 * (5 / 12) / max, 15);
    expect(b).toMatchObject({ semantic: B, evidence: { jitrl: { support: 1, valueKind: 'known' } } });
    expect(ev(b).advantage).toBeCloseTo(-5 / 6, 15);
    expect(b!.adjustedLogit).toBeCloseTo(zB + 2 * (-5 / 6) / max, 15);
    expect(c).toMatchObject({ semantic: C, evidence: { jitrl: { q: 0, support: 0, valueKind: 'neutral' } } });
    expect(ev(c).advantage).toBeCloseTo(-1 / 3, 15);
    expect(c!.adjustedLogit).toBeCloseTo(zC + 2 * (-1 / 3) / max, 15);
    expect(a!.baseProb).toBeCloseTo(0.5, 15);
    expect(c!.baseProb).toBeCloseTo(0.2, 15);
    const expected = softmax([zA + 1, zB - 2, zC - 0.8]);
    out.candidates.forEach((r, i) => expect(r.adjustedProb).toBeCloseTo(expected[i]!, 6));
    expect(out.candidates.map((x) => x.action)).toEqual([click('1'), click('2'), click('3')]);
    expect(out.droppedMemoryActions).toBe(0);
  });

  it('optimistic branch (rand < λ): Q = V + α/|N(s)| (Eq. 6)', () => {
    // The paper's α = 5 (its reward scale); the default is 5/3 on ours (settings.ts).
    const out = estimateValues(input({ random: scriptedRandom(0.049), settings: { ...DEFAULT_JITRL, advantageFloor: 0, alpha: 5 } }));
    const c = out.candidates[2]!;
    expect(ev(c).valueKind).toBe('optimistic');
    expect(ev(c).q).toBeCloseTo(1 / 3 + 5 / 3, 15);
    expect(ev(c).advantage).toBeCloseTo(5 / 3, 15);
    expect(ev(c).normAdvantage).toBeCloseTo((5 / 3) / (5 / 3 + eps), 15);
    expect(ev(out.candidates[1]).normAdvantage).toBeCloseTo((-5 / 6) / (5 / 3 + eps), 15);
    expect(c.adjustedLogit).toBeCloseTo(zC + 2, 7);
  });

  it('max-positive normalization divides by the largest positive advantage (authors\' code)', () => {
    const out = estimateValues(input({ settings: { ...DEFAULT_JITRL, normalization: 'max-positive', advantageFloor: 0 } }));
    expect(ev(out.candidates[0]).normAdvantage).toBeCloseTo(1, 15);
    expect(ev(out.candidates[1]).normAdvantage).toBeCloseTo(-2, 15);
    expect(ev(out.candidates[2]).normAdvantage).toBeCloseTo(-0.8, 15);
  });

  it('max-positive with no positive advantage falls back to max|A|; a memory action that does not resolve is dropped and counted', () => {
    // Neighbours E (G 3, twice, not on this page) and A (G 1): V = 7/3, A_A = −4/3, A_C (neutral) = −7/3.
    const out = estimateValues(input({
      candidates: page.propose([modelCandidates[0]!, modelCandidates[2]!]),
      neighbours: [nb('x:0', E, 3), nb('y:0', A, 1), nb('z:0', E, 3)],
      settings: { ...DEFAULT_JITRL, normalization: 'max-positive', advantageFloor: 0 },
    }));
    expect(out.droppedMemoryActions).toBe(1);
    expect(out.notes).toEqual(['1 memory action(s) no longer on this page, dropped']);
    expect(out.candidates.map((c) => c.semantic)).toEqual([A, C]);
    expect(out.v).toBeCloseTo(7 / 3, 15);
    expect(ev(out.candidates[0]).normAdvantage).toBeCloseTo(-4 / 3 / (7 / 3 + eps), 15);
    expect(ev(out.candidates[1]).normAdvantage).toBeCloseTo(-7 / 3 / (7 / 3 + eps), 15);
    expect(normalizeAdvantages([0, 0], 'max-abs')).toEqual([0, 0]);
    expect(normalizeAdvantages([0, 0], 'max-positive')).toEqual([0, 0]);
  });

  it('memory-only actions that resolve join one margin below the lowest model logit (Eq. 23, our rule) and get their Q', () => {
    // V = (1 + 0.5 − 0.5 + 2) / 4 = 0.75
    const out = estimateValues(input({ neighbours: [...neighbours, nb('n4:0', D, 2)], random: scriptedRandom(0.9) }));
    expect(out.candidates.map((c) => [c.semantic, c.origin])).toEqual([[A, 'model'], [B, 'model'], [C, 'model'], [D, 'memory']]);
    const d = out.candidates[3]!;
    expect(d).toMatchObject({ action: click('4'), evidence: { jitrl: { q: 2, support: 1, valueKind: 'known' } } });
    expect(d.baseLogit).toBeCloseTo(zC - 1, 15);
    expect(ev(d).advantage).toBeCloseTo(1.25, 15);
    expect(ev(d).normAdvantage).toBeCloseTo(1.25 / (1.25 + eps), 15);
    expect(d.adjustedLogit).toBeCloseTo(zC - 1 + 2, 7);
    // base probabilities now cover four actions: 0.2/e against 0.5 + 0.3 + 0.2
    const total = 1 + 0.2 / Math.E;
    expect(d.baseProb).toBeCloseTo(0.2 / Math.E / total, 15);
    expect(out.candidates[0]!.baseProb).toBeCloseTo(0.5 / total, 15);
    expect(out.candidates[3]!.action).toEqual(click('4'));
  });

  it('a memory action that resolves onto an element a model candidate already targets is not added twice', () => {
    const loose = { ...page, resolve: (s: string) => (s === E ? { action: click('1'), semantic: A } : page.resolve(s)) };
    const out = estimateValues(input({ ...loose, neighbours: [...neighbours, nb('g:0', E, 1)] }));
    expect(out.candidates.map((c) => c.semantic)).toEqual([A, B, C]);
    expect(out.droppedMemoryActions).toBe(0);
  });

  it('no neighbours: logits unchanged, no values, no random draws', () => {
    const random = scriptedRandom(0);
    const out = estimateValues(input({ neighbours: [], random }));
    expect(random.calls).toBe(0);
    expect(out.v).toBeNull();
    for (const c of out.candidates) {
      expect(ev(c)).toEqual({ q: null, advantage: null, normAdvantage: null, support: 0, valueKind: 'none' });
      expect(c.adjustedLogit).toBe(c.baseLogit);
      expect(c.adjustedProb).toBe(c.baseProb);
    }
  });

  it('drops a duplicate model candidate and says so', () => {
    const out = estimateValues(input({ candidates: page.propose([modelCandidates[0]!, { action: click('1'), logit: 3 }]), neighbours: [] }));
    expect(out.candidates).toHaveLength(1);
    expect(out.notes).toEqual([`duplicate candidate ${A} ignored`]);
  });
});

describe('Eq. 8: z\' = z + β·Ã is the KL-regularized optimum', () => {
  // J(π') = E_π'[Ã] − (1/β)·KL(π' || π)
  const objective = (p: number[], base: number[], adv: number[], beta: number): number =>
    p.reduce((sum, pi, i) => sum + (pi > 0 ? pi * adv[i]! - (pi * Math.log(pi / base[i]!)) / beta : 0), 0);

  it('softmax(z\') from estimateValues scores at least as high as any other distribution', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -4, max: 4, noNaN: true }), { minLength: 2, maxLength: 5 }),
        fc.array(fc.tuple(fc.nat(4), fc.double({ min: -3, max: 3, noNaN: true })), { minLength: 1, maxLength: 12 }),
        fc.double({ min: 0.1, max: 5, noNaN: true }),
        fc.constantFrom<'max-abs' | 'max-positive'>('max-abs', 'max-positive'),
        fc.array(fc.double({ min: 1e-3, max: 1, noNaN: true }), { minLength: 5, maxLength: 5 }),
        (logits, memory, beta, normalization, weights) => {
          const elements = logits.map((_, i) => ({ ref: String(i + 1), role: 'button', name: `b${i}` }));
          const p = pageOf(elements);
          const out = estimateValues({
            candidates: p.propose(logits.map((logit, i) => ({ action: click(String(i + 1)), logit }))),
            neighbours: memory.map(([i, ret], j) => nb(`m${j}:0`, `click(<button "b${i % logits.length}">)`, ret)),
            ...p,
            settings: { ...DEFAULT_JITRL, beta, normalization },
            random: scriptedRandom(0.5),
          });
          const base = out.candidates.map((c) => c.baseProb);
          const adv = out.candidates.map((c) => ev(c).normAdvantage ?? 0);
          const best = objective(out.candidates.map((c) => c.adjustedProb), base, adv, beta);
          const w = weights.slice(0, base.length);
          const total = w.reduce((a, b) => a + b, 0);
          const alternative = w.map((x) => x / total);
          expect(best).toBeGreaterThanOrEqual(objective(alternative, base, adv, beta) - 1e-9);
          expect(best).toBeGreaterThanOrEqual(objective(base, base, adv, beta) - 1e-9);
        },
      ),
      { numRuns: 300, seed: 42 },
    );
  });
});
