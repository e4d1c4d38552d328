/**
 * Issue 32: one builder of a proposed step's record (`proposedStep`), used by
 * the agent's record stage and by the replay; the keys come in the order both
 * wrote them before.
 */
import { describe, expect, it } from 'vitest';
import { StepRecordSchema } from '../../src/core/episode/episode.ts';
import { proposedStep, type StepPage } from '../../src/core/episode/step-record.ts';
import type { PageObservation } from '../../src/core/page/observation.ts';

const observation: PageObservation = {
  url: 'https://shop.test/cart', title: '  Cart  ', nodes: [], focusedRef: null,
  offscreen: { above: 0, below: 0 }, omissions: [], scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
};
const page: StepPage = { stepIndex: 2, url: 'https://shop.test/cart', regUrl: 'https://shop.test/cart', observation, effectiveState: ['cart: 1 item'] };
const candidate = { action: 'click([3])', semantic: 'click(button "Pay")', origin: 'memory' as const, baseLogit: 0, adjustedLogit: 0, baseProb: 1, adjustedProb: 1 };

describe('proposedStep', () => {
  it('records the page and the proposal with nothing decided, leaving out what is absent or empty', () => {
    const step = proposedStep(page, {
      logitSource: 'memory', candidates: [candidate], replayed: [], learningNotes: ['n'], rejected: [], evidence: {},
      usage: { calls: 0, promptTokens: 0, completionTokens: 0 },
    }, { started: 1000, now: 1250 });
    expect(Object.keys(step)).toEqual([
      'index', 'url', 'regUrl', 'pageTitle', 'pageDigest', 'effectiveState', 'logitSource', 'candidates', 'replayed', 'learningNotes',
      'chosen', 'rejected', 'result', 'reward', 'decisionLatencyMs', 'modelCalls', 'promptTokens', 'completionTokens', 'startedAt',
    ]);
    expect(step).toMatchObject({ index: 2, pageTitle: 'Cart', chosen: null, result: null, reward: null, decisionLatencyMs: 250, startedAt: 1000 });
    expect(StepRecordSchema.safeParse(step).success).toBe(true);
  });

  it('keeps the order the record stage wrote (page key, selection, loop, evidence) and the replay\'s step last', () => {
    const step = proposedStep({ ...page, observation: { ...observation, title: '' } }, {
      pageKey: 'k', logitSource: 'logprobs', candidates: [candidate], replayed: ['s1'], learningNotes: [], rejected: ['click([9])'],
      selection: { mode: 'argmax', temperature: 1, drawn: 0, probs: [1] } as never, loop: { regUrl: 'x' } as never, evidence: { jitrl: { v: 1 } },
      usage: { calls: 1, promptTokens: 10, completionTokens: 5 }, replayStep: { procedureId: 'p', step: 0, of: 2 },
    }, { started: 0, now: 0 });
    expect(Object.keys(step)).toEqual([
      'index', 'url', 'regUrl', 'pageDigest', 'effectiveState', 'pageKey', 'logitSource', 'candidates', 'selection', 'loop', 'replayed', 'learningNotes', 'evidence',
      'chosen', 'rejected', 'result', 'reward', 'decisionLatencyMs', 'modelCalls', 'promptTokens', 'completionTokens', 'startedAt', 'replayStep',
    ]);
    expect([step.modelCalls, step.promptTokens, step.completionTokens]).toEqual([1, 10, 5]);
  });
});
