import { describe, expect, it } from 'vitest';
import type { Episode, StepRecord } from '../../../core/episode/episode.ts';
import { JitrlLearner, buildTransitions } from '../core/jitrl-learner.ts';
import { composeRequest, type AdjustInput, type StepContext } from '../../../core/learning/learner.ts';
import { assignStepRewards } from '../../../core/credit/rewards.ts';
import { InMemoryMemoryStore } from '../core/transition.ts';
import type { MemoryStore } from '../core/transition.ts';
import type { Transition } from '../core/transition.ts';
import { seededRandom } from '../../../core/random.ts';
import { jaccard, stateTokensOf, TASK_VALUE_TOKEN } from '../../../core/page/tokenize.ts';
import { DEFAULT_SETTINGS } from '../../../core/settings.ts';
import { DEFAULT_JITRL } from '../core/settings.ts';
import { click, pageOf, scriptedRandom, stepRecord, stepValuesOf, transition, valueOf } from './jitrl-helpers.ts';
import { formatAction } from '../../../core/page/action-grammar.ts';

const clock = { now: () => 5000 };
const BLUE = 'click(<button "Add blue shirt">)';
const RED = 'click(<button "Add red shirt">)';
const page = pageOf([
  { ref: '1', role: 'button', name: 'Add blue shirt' },
  { ref: '2', role: 'button', name: 'Add red shirt' },
]);
const context = (p: Partial<StepContext> = {}): StepContext => ({
  episodeId: 'now',
  stepIndex: 0,
  task: 'add the red shirt to the cart',
  origin: 'https://shop.test',
  url: 'https://shop.test/products/42',
  regUrl: '/products/ID',
  observation: { url: 'https://shop.test/products/42', title: 'Shirts', nodes: [] } as unknown as StepContext['observation'],
  effectiveState: [],
  ...p,
});
// The fixed base policy: it always prefers the blue shirt, 0.7 to 0.3.
const adjustInput = (p: Partial<StepContext> = {}): AdjustInput => ({
  context: context(p),
  candidates: page.propose([{ action: click('1'), logit: Math.log(0.7) }, { action: click('2'), logit: Math.log(0.3) }]),
  resolve: page.resolve,
});

function episode(id: string, steps: StepRecord[], p: Partial<Episode> = {}): Episode {
  return {
    id, origin: 'https://shop.test', task: 'add the red shirt to the cart', startUrl: 'https://shop.test/products/42', tabId: null,
    status: 'success', steps, answer: null, error: null, learners: ['jitrl'], attempt: 1, kind: 'bench', startedAt: 0, endedAt: 1, ...p,
  };
}

describe('JitrlLearner.adjust', () => {
  it('retrieves, values and updates; reports neighbours and notes', async () => {
    const store = new InMemoryMemoryStore();
    await store.putEpisode('old', [transition({ id: 'old:0', action: BLUE, futureRewards: [-1, 0.5] })]);
    await store.putEpisode('other', [transition({ id: 'other:0', action: RED, regUrl: '/cart' })]);
    const learner = new JitrlLearner({ store, settings: () => ({ ...DEFAULT_JITRL, advantageFloor: 0 }), random: scriptedRandom(0.9), clock });
    const out = await learner.adjust(adjustInput());
    // N(s) = {old:0}, G = −1 + 0.1·0.5 = −0.95 = V; Q_blue = V → A 0; red unseen, neutral: A = 0.95 → Ã ≈ 1
    expect(stepValuesOf(out).v).toBeCloseTo(-0.95, 15);
    expect(stepValuesOf(out).neighbours).toEqual([{ transitionId: 'old:0', episodeId: 'old', task: 'add the red shirt to the cart', action: BLUE, similarity: 1, ret: expect.closeTo(-0.95, 15) }]);
    expect(out.candidates.map((c) => [c.semantic, valueOf(c).valueKind])).toEqual([[BLUE, 'known'], [RED, 'neutral']]);
    expect(out.candidates[0]!.adjustedLogit).toBeCloseTo(Math.log(0.7), 15);
    expect(out.candidates[1]!.adjustedLogit).toBeCloseTo(Math.log(0.3) + 2, 7);
    expect(out.candidates.map((c) => c.action)).toEqual([click('1'), click('2')]);
    // G = −0.95 for blue in this very state: blamed, so barred here
    expect(out.candidates[0]!.barred).toBe('failed');
    expect(out.notes).toEqual(['1 candidate(s) barred in this state (rejected, or blamed for a failure here)']);
  });

  it('with an empty memory leaves the logits alone and says so', async () => {
    const learner = new JitrlLearner({ store: new InMemoryMemoryStore(), settings: () => DEFAULT_JITRL, random: scriptedRandom(0), clock });
    const out = await learner.adjust(adjustInput());
    expect(stepValuesOf(out).v).toBeNull();
    expect(out.candidates.map((c) => c.adjustedLogit)).toEqual([Math.log(0.7), Math.log(0.3)]);
    expect(out.notes).toEqual(['no similar experience on this page yet: logits unchanged']);
  });

  it('honours an aborted signal', async () => {
    const learner = new JitrlLearner({ store: new InMemoryMemoryStore(), settings: () => DEFAULT_JITRL, random: scriptedRandom(0), clock });
    await expect(learner.adjust(adjustInput(), AbortSignal.abort())).rejects.toThrow();
  });
});

describe('JitrlLearner.shapeRequest: the pool keeps room for untried actions', () => {
  const shape = { guide: null, sections: [], temperature: 0, numCandidates: 3, tuned: {} };
  const url = 'https://shop.test/products/42';

  it('asks for as many more candidates as actions are barred in this very state', async () => {
    const store = new InMemoryMemoryStore();
    // This state: blue failed (G = −1, barred), red was rejected (barred), "wish list" succeeded (not barred).
    await store.putEpisode('a', [transition({ id: 'a:0', action: BLUE, url, futureRewards: [-1] })]);
    await store.putEpisode('b', [transition({ id: 'b:0:rejected:0', action: RED, url, futureRewards: [-1] })]);
    await store.putEpisode('c', [transition({ id: 'c:0', action: 'click(<button "Add to wish list">)', url, futureRewards: [1] })]);
    const learner = new JitrlLearner({ store, settings: () => DEFAULT_JITRL, random: scriptedRandom(0), clock });
    const change = await learner.shapeRequest(context(), shape);
    expect(change).toEqual({ extraCandidates: 2 });
    expect(composeRequest(shape, [{ learnerId: 'jitrl', change }]).numCandidates).toBe(5);
  });

  it('changes nothing where nothing is barred, and never asks for more than ten', async () => {
    const store = new InMemoryMemoryStore();
    const learner = new JitrlLearner({ store, settings: () => DEFAULT_JITRL, random: scriptedRandom(0), clock });
    expect(await learner.shapeRequest(context(), shape)).toEqual({});
    // Another product page (another URL) says nothing about this one's buttons.
    await store.putEpisode('d', [transition({ id: 'd:0', action: BLUE, url: 'https://shop.test/products/43', futureRewards: [-1] })]);
    expect(await learner.shapeRequest(context(), shape)).toEqual({});
    for (let i = 0; i < 12; i++) await store.putEpisode(`e${i}`, [transition({ id: `e${i}:0`, action: `click(<button "Option ${i}">)`, url, futureRewards: [-1] })]);
    const wide = { ...shape, numCandidates: 8 };
    const change = await learner.shapeRequest(context(), wide);
    // Every retrieved neighbour here is barred (the retrieval's own limit decides how many): 8 + that is over ten.
    expect(change.extraCandidates).toBeGreaterThan(2);
    expect(composeRequest(wide, [{ learnerId: 'jitrl', change }]).numCandidates).toBe(10);
  });
});

describe('JitrlLearner.learn', () => {
  it('writes one transition per executed step and one per rejected proposal, in one putEpisode call', async () => {
    const inner = new InMemoryMemoryStore();
    const writes: [string, Transition[]][] = [];
    const store: MemoryStore = Object.assign(Object.create(inner) as MemoryStore, {
      putEpisode: async (id: string, rows: Transition[]) => { writes.push([id, rows]); await inner.putEpisode(id, rows); },
    });
    const steps = [
      stepRecord({ index: 0, url: 'https://shop.test/search?q=shirt', regUrl: '/search', startedAt: 100,
        chosen: { action: 'fill([5], "red shirt")', semantic: 'fill(<searchbox "Search">, "red shirt")', decision: 'approved' } }),
      stepRecord({ index: 1, startedAt: 200, effectiveState: ['click(<tab "Shirts">)'], rejected: [BLUE, BLUE],
        chosen: { action: 'click([2])', semantic: RED, decision: 'picked' } }),
      stepRecord({ index: 2, startedAt: 300, chosen: null, result: null }),
    ];
    const learner = new JitrlLearner({ store, settings: () => DEFAULT_JITRL, random: scriptedRandom(0), clock, rejectReward: () => -2 });
    await learner.learn({ episode: episode('ep', steps), rewards: [0.7, 1.2, 0], rewardSource: 'combined' });
    expect(writes.map(([id, rows]) => [id, rows.map((t) => t.id)])).toEqual([['ep', ['ep:0', 'ep:1', 'ep:1:rejected:0']]]);
    const rows = await inner.all();
    expect(rows.find((t) => t.id === 'ep:0')).toEqual({
      id: 'ep:0', origin: 'https://shop.test', regUrl: '/search', url: 'https://shop.test/search?q=shirt', effectiveState: [], stateTokens: [],
      task: 'add the red shirt to the cart', taskTokens: ['add', 'red', 'shirt', 'to', 'cart'],
      action: 'fill(<searchbox "Search">, "red shirt")', reward: 0.7, rewardSource: 'combined', futureRewards: [0.7, 1.2],
      episodeId: 'ep', stepIndex: 0, createdAt: 100, updatedAt: 5000, taught: 'approved',
    });
    // Picked over a rejected proposal: a correction.
    expect(rows.find((t) => t.id === 'ep:1')).toMatchObject({ action: RED, reward: 1.2, futureRewards: [1.2], stateTokens: ['click', 'tab', 'shirts', '⟨click tab "shirts"⟩'], taught: 'corrected' });
    expect(rows.find((t) => t.id === 'ep:1:rejected:0')).toMatchObject({
      action: BLUE, reward: -2, futureRewards: [-2], rewardSource: 'person', stepIndex: 1, regUrl: '/products/ID', effectiveState: ['click(<tab "Shirts">)'], taught: 'rejected',
    });
  });

  it('defaults the reject reward to the settings and the source to person; falls back to the episode origin', () => {
    const rows = buildTransitions(
      { episode: episode('e', [stepRecord({ index: 0, url: 'not a url', rejected: [RED], chosen: { action: 'click([1])', semantic: BLUE, decision: 'rejected' } })]), rewards: [-1] },
      { now: 1, rejectReward: DEFAULT_SETTINGS.rewards.reject },
    );
    expect(rows.map((t) => [t.id, t.action, t.reward, t.origin, t.rewardSource])).toEqual([
      ['e:0:rejected:0', RED, -1, 'https://shop.test', 'person'],
      ['e:0:rejected:1', BLUE, -1, 'https://shop.test', 'person'],
    ]);
  });
});

describe('instances of a template share a state', () => {
  it('retrieves another instance\'s step taken after setting the value its own task gave (⟨task value⟩), and not without the folding', async () => {
    const store = new InMemoryMemoryStore();
    const learner = new JitrlLearner({ store, settings: () => DEFAULT_JITRL, random: seededRandom(0), clock });
    const sydney = 'Make Sydney my home city';
    const setSydney = 'select_option(<combobox "Home city">, "(GMT+10) Sydney")';
    const steps = [stepRecord({ index: 0, effectiveState: [setSydney], chosen: { action: 'click([1])', semantic: BLUE, decision: 'auto' } })];
    await learner.learn({ episode: episode('syd', steps, { task: sydney, status: 'failure' }), rewards: [-1], rewardSource: 'outcome' });
    const stored = (await store.all())[0]!;
    expect(stored.stateTokens).toEqual(['select_option', 'combobox', 'home', 'city', TASK_VALUE_TOKEN, '⟨select_option combobox "home city"⟩']);

    const lima = 'Make Lima my home city';
    const out = await learner.adjust(adjustInput({ task: lima, effectiveState: ['select_option(<combobox "Home city">, "(GMT-03) Lima")'] }));
    // State Jaccard 1 (both fold to ⟨task value⟩), task Jaccard 3/5: 0.7 + 0.3·0.6 = 0.88 ≥ r = 0.8.
    expect(stepValuesOf(out).neighbours.map((n) => [n.transitionId, n.similarity])).toEqual([['syd:0', expect.closeTo(0.88, 12)]]);
    // With the raw tokens the states share 6 of 10 tokens (the combobox's mark among them): 0.7·6/10 + 0.18 = 0.6, below r.
    const raw = stateTokensOf([setSydney]);
    const rawScore = 0.7 * jaccard(raw, stateTokensOf(['select_option(<combobox "Home city">, "(GMT-03) Lima")'])) + 0.3 * 0.6;
    expect(rawScore).toBeCloseTo(0.7 * 6 / 10 + 0.18, 12);
    expect(rawScore).toBeLessThan(DEFAULT_JITRL.threshold);
  });
});

describe('learning on the job', () => {
  it('a base policy that prefers the wrong action comes to prefer the right one after a few rewarded episodes', async () => {
    const store = new InMemoryMemoryStore();
    const learner = new JitrlLearner({ store, settings: () => DEFAULT_JITRL, random: seededRandom(0), clock });
    const chosenPerAttempt: string[] = [];
    const redProb: number[] = [];
    for (let attempt = 1; attempt <= 4; attempt++) {
      const out = await learner.adjust(adjustInput({ episodeId: `ep${attempt}` }));
      const best = out.candidates.reduce((a, b) => (b.adjustedProb > a.adjustedProb ? b : a));
      chosenPerAttempt.push(best.semantic);
      redProb.push(out.candidates.find((c) => c.semantic === RED)!.adjustedProb);
      const steps = [stepRecord({ index: 0, startedAt: attempt, chosen: { action: formatAction(best.action), semantic: best.semantic, decision: 'auto' } })];
      const success = best.semantic === RED;
      const { rewards, source } = assignStepRewards({ steps, outcome: success ? 'success' : 'failure', evaluatorScores: null, settings: DEFAULT_SETTINGS.rewards });
      await learner.learn({ episode: episode(`ep${attempt}`, steps, { attempt, status: success ? 'success' : 'failure' }), rewards, rewardSource: source });
    }
    expect(chosenPerAttempt).toEqual([BLUE, RED, RED, RED]);
    expect(redProb[0]).toBeCloseTo(0.3, 15);
    // attempt 2: V = −1, Q_blue = −1 (A 0), red unseen and neutral (A +1 → Ã ≈ 1): softmax(log .7, log .3 + 2)
    const e2 = Math.exp(2) * 0.3;
    expect(redProb[1]).toBeCloseTo(e2 / (e2 + 0.7), 6);
    // attempt 3: V = 0, A_blue = −1, A_red = +1
    const e3 = 0.3 * Math.exp(2);
    expect(redProb[2]).toBeCloseTo(e3 / (e3 + 0.7 * Math.exp(-2)), 6);
    expect(await store.count()).toBe(4);

    // The experience transfers to a differently worded task on the same page type (task Jaccard 3/7 > 0.27, score ≈ 0.829 ≥ 0.8).
    const transfer = await learner.adjust(adjustInput({ task: 'put a red shirt in the cart' }));
    expect(stepValuesOf(transfer).neighbours).toHaveLength(4);
    // V = (−1 + 3·1)/4 = 0.5, A_blue = −1.5, A_red = 0.5 → Ã = −1 and 1/3
    const red = 0.3 * Math.exp(2 / 3);
    expect(transfer.candidates.find((c) => c.semantic === RED)!.adjustedProb).toBeCloseTo(red / (red + 0.7 * Math.exp(-2)), 6);
  });
});
