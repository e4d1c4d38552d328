/**
 * Issue 23, learning finding 8: each of JitRL's additions beyond the paper has
 * a setting, so Algorithm 1 alone can be measured (`--ablate`). Off, each one
 * leaves exactly the paper's behaviour at its point: no bar, no outright
 * exploitation, no widened request, no loop bar.
 */
import { jitrlDefinition } from '../definition.ts';
import { describe, expect, it } from 'vitest';
import { finishProposal } from '../../../core/agent/proposal-stage.ts';
import { rankStage } from '../../../core/agent/step-stages.ts';
import type { Episode } from '../../../core/episode/episode.ts';
import { pageKeyOf } from '../../../core/page/page-key.ts';
import type { Action } from '../../../core/page/action.ts';
import { testCandidate } from '../../../../test/support/candidate.ts';
import { estimateValues, type EstimateInput } from '../core/estimate-values.ts';
import { JitrlLearner } from '../core/jitrl-learner.ts';
import { composeRequest, type StepContext } from '../../../core/learning/learner.ts';
import { InMemoryMemoryStore } from '../core/transition.ts';
import type { Neighbour } from '../core/transition.ts';
import { DEFAULT_SETTINGS } from '../../../core/settings.ts';
import { DEFAULT_JITRL } from '../core/settings.ts';
import { click, pageOf, scriptedRandom, stepRecord, transition } from './jitrl-helpers.ts';

const KETTLE = 'click(<button "Boil">)';
const TIMER = 'click(<button "Set timer">)';
const page = pageOf([{ ref: '1', role: 'button', name: 'Boil' }, { ref: '2', role: 'button', name: 'Set timer' }]);
const nb = (id: string, action: string, ret: number): Neighbour => ({ transition: transition({ id, action }), similarity: 1, ret });
const input = (neighbours: Neighbour[], settings = DEFAULT_JITRL): EstimateInput => ({
  candidates: page.propose([{ action: click('1'), logit: -1 }, { action: click('2'), logit: -2 }]), neighbours, resolve: page.resolve, settings, random: scriptedRandom(0.9),
});

describe('JitRL addition switches (finding 8)', () => {
  it('all four default on', () => {
    expect([DEFAULT_JITRL.bars, DEFAULT_JITRL.exploitSettled, DEFAULT_JITRL.widenPool, DEFAULT_JITRL.loopBars]).toEqual([true, true, true, true]);
    expect(jitrlDefinition.settings.read(DEFAULT_SETTINGS).loopBars).toBe(true);
  });

  it('bars: a rejection here bars the action; off, it is only Eq. 10 (same logits either way)', () => {
    const neighbours = [nb('e1:0:rejected:0', KETTLE, -1)];
    const on = estimateValues(input(neighbours));
    const off = estimateValues(input(neighbours, { ...DEFAULT_JITRL, bars: false }));
    expect(on.candidates[0]!.barred).toBe('rejected');
    expect(off.candidates[0]!.barred).toBeUndefined();
    expect(off.candidates.map((c) => c.adjustedLogit)).toEqual(on.candidates.map((c) => c.adjustedLogit));
  });

  it('settled exploitation: off, a success here is only Eq. 10', () => {
    const neighbours = [nb('s1:0', TIMER, 1)];
    expect(estimateValues(input(neighbours)).candidates[1]!.settled).toBe(true);
    expect(estimateValues(input(neighbours, { ...DEFAULT_JITRL, exploitSettled: false })).candidates[1]!.settled).toBeUndefined();
  });

  it('pool widening: 3 + 1 barred = 4 candidates asked; off, the request is left as it is', async () => {
    const store = new InMemoryMemoryStore();
    const url = 'https://kitchen.test/appliance/9';
    await store.putEpisode('f', [transition({ id: 'f:0', action: KETTLE, url, futureRewards: [-1] })]);
    const context = { episodeId: 'now', stepIndex: 0, task: 'add the red shirt to the cart', origin: 'https://shop.test', url, regUrl: '/products/ID', effectiveState: [] } as unknown as StepContext;
    const shape = { guide: null, sections: [], temperature: 0.8, numCandidates: 3, tuned: {} };
    const learner = (widenPool: boolean) => new JitrlLearner({ store, settings: () => ({ ...DEFAULT_JITRL, widenPool }), random: scriptedRandom(0.9), clock: { now: () => 1 } });
    const change = await learner(true).shapeRequest(context, shape);
    expect(change).toEqual({ extraCandidates: 1 });
    expect(composeRequest(shape, [{ learnerId: 'jitrl', change }]).numCandidates).toBe(4);
    expect(await learner(false).shapeRequest(context, shape)).toEqual({});
  });

  it('loop bars: back at a page as it was, the action that led round is barred; off, it is not', () => {
    const rec = (semantic: string, adjustedLogit: number, action: Action) => testCandidate({ semantic, adjustedLogit }, action);
    const earlier = [
      stepRecord({ index: 0, url: 'https://kitchen.test/', regUrl: '/', pageKey: 'home', chosen: { action: 'click([1])', semantic: KETTLE, decision: 'auto' } }),
      stepRecord({ index: 1, url: 'https://kitchen.test/boil', regUrl: '/boil', pageKey: 'boil', chosen: { action: 'click([1])', semantic: 'go_back()', decision: 'auto' } }),
    ];
    const finish = (barLoops: boolean) => finishProposal({
      candidates: [rec(KETTLE, 0, click('1')), rec(TIMER, -1, click('2'))], earlier, pageKey: 'home', url: 'https://kitchen.test/',
      selection: { mode: 'argmax', temperature: 1 }, drawKey: 'k', barLoops,
    });
    expect(finish(true).candidates.find((c) => c.semantic === KETTLE)!.barred).toBe('loop');
    expect(finish(true).candidates[0]!.semantic).toBe(TIMER);
    expect(finish(false).candidates.find((c) => c.semantic === KETTLE)!.barred).toBeUndefined();
    expect(finish(false).candidates[0]!.semantic).toBe(KETTLE);
  });

  it('loop bars reach the rank stage through the request: JitRL switched off, no learner switches them back on', async () => {
    const context = { episodeId: 'now', stepIndex: 0, task: 't', origin: 'https://kitchen.test', url: 'https://kitchen.test/', regUrl: '/', effectiveState: [] } as unknown as StepContext;
    const shape = { guide: null, sections: [], temperature: 0.8, numCandidates: 3, tuned: {} };
    const jitrl = (loopBars: boolean, widenPool = true) => new JitrlLearner({ store: new InMemoryMemoryStore(), settings: () => ({ ...DEFAULT_JITRL, loopBars, widenPool }), random: scriptedRandom(0.9), clock: { now: () => 1 } });
    expect(await jitrl(true).shapeRequest(context, shape)).toEqual({});
    expect(await jitrl(false).shapeRequest(context, shape)).toEqual({ rankingOff: ['bar-loops'] });
    expect(await jitrl(false, false).shapeRequest(context, shape)).toEqual({ rankingOff: ['bar-loops'] });
    // The rule is the rank stage's; the request only says which rules are off, so another learner cannot switch it back on.
    const composed = composeRequest(shape, [{ learnerId: 'jitrl', change: { rankingOff: ['bar-loops'] } }, { learnerId: 'other', change: { rankingOff: [] } }]);
    expect(composed.rankingOff).toEqual(['bar-loops']);
    expect(composeRequest(shape, [{ learnerId: 'a', change: { rankingOff: ['bar-loops'] } }, { learnerId: 'b', change: { rankingOff: ['bar-loops'] } }]).rankingOff).toEqual(['bar-loops']);
    expect(composeRequest(shape, []).rankingOff).toBeUndefined();
    // The rank stage reads it from the request (absent = on).
    const observation = { url: 'https://kitchen.test/', title: 'Kitchen', nodes: [] } as unknown as StepContext['observation'];
    const home = pageKeyOf(observation);
    const episode = { id: 'e', task: 't', attempt: 1, steps: [
      stepRecord({ index: 0, url: 'https://kitchen.test/', regUrl: '/', pageKey: home, chosen: { action: 'click([1])', semantic: KETTLE, decision: 'auto' } }),
      stepRecord({ index: 1, url: 'https://kitchen.test/boil', regUrl: '/boil', pageKey: 'boil', chosen: { action: 'go_back()', semantic: 'go_back()', decision: 'auto' } }),
    ] } as unknown as Episode;
    const candidates = [testCandidate({ semantic: KETTLE, adjustedLogit: 0 }, click('1')), testCandidate({ semantic: TIMER, adjustedLogit: -1 }, click('2'))];
    const rank = (request?: { rankingOff?: readonly 'bar-loops'[] }) => rankStage({
      adjusted: { candidates, evidence: {} }, episode, context: { ...context, stepIndex: 2, observation }, exclude: new Set(), notes: [],
      settings: { ...DEFAULT_SETTINGS, agent: { ...DEFAULT_SETTINGS.agent, selection: 'argmax' } }, ...(request ? { request } : {}),
    }).candidates[0]!.semantic;
    expect([rank(), rank({}), rank({ rankingOff: [] }), rank({ rankingOff: ['bar-loops'] })]).toEqual([TIMER, TIMER, TIMER, KETTLE]);
  });
});

describe('the ablation rows (bench --ablate)', () => {
  it('paper only switches every addition off; each "+" row adds exactly one; each leave-one-out row removes exactly one', async () => {
    const { ABLATION_ROWS, LEAVE_ONE_OUT_ROWS, PAPER_ONLY } = await import('../core/ablation.ts');
    expect(PAPER_ONLY).toEqual({ bars: false, exploitSettled: false, widenPool: false, loopBars: false, advantageFloor: 0, preferSameUrl: false });
    const differing = (a: object, b: object) => Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== (b as Record<string, unknown>)[k]);
    const shipped = ABLATION_ROWS.at(-1)!.settings;
    expect(differing(shipped, { ...PAPER_ONLY, ...shipped })).toEqual([]);
    expect(shipped).toMatchObject({ bars: DEFAULT_JITRL.bars, advantageFloor: DEFAULT_JITRL.advantageFloor, preferSameUrl: DEFAULT_JITRL.preferSameUrl });
    expect(ABLATION_ROWS.slice(1, -1).map((r) => differing(r.settings, PAPER_ONLY).length)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(LEAVE_ONE_OUT_ROWS.map((r) => differing(r.settings, shipped).length)).toEqual([1, 1, 1, 1, 1, 1]);
  });
});
