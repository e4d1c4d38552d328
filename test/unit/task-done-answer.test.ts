/**
 * Issue 31, "Task is done": the verdict can carry the person's answer, kept
 * as the episode's answer unless the agent gave one; the protocol accepts it.
 */
import { describe, expect, it } from 'vitest';
import type { PageObservation } from '../../src/core/page/observation.ts';
import { UiRequests } from '../../src/protocol/messages.ts';
import { attemptCosts } from '../../src/core/episode/attempt-costs.ts';
import { createUiClient } from '../../src/protocol/validate.ts';
import type { AgentController } from '../../src/core/agent/agent-controller.ts';
import { markDone } from '../../src/ui/app/finish-controls.tsx';
import { oneCandidateAgent } from '../support/one-candidate-agent.ts';

const page = {
  async observe(): Promise<PageObservation> {
    return {
      url: 'https://shop.test/', title: 'Shop', focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [],
      nodes: [{ ref: '1', kind: 'interactive', role: 'button', name: 'Buy', states: {}, depth: 0, inViewport: true }],
      scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
    };
  },
  async act() { return { ok: true as const, navigated: false }; },
};

const controller = () => oneCandidateAgent(page);

describe('the verdict with the person\'s answer', () => {
  it('a paused episode closes as a success with the answer kept', async () => {
    const c = controller();
    const ep = await c.start({ task: 'How much is it?', startUrl: 'https://shop.test/', tabId: 7 });
    await c.pause(ep.id);
    const closed = await c.finish(ep.id, 'success', { answer: '12 EUR' });
    expect({ status: closed.status, answer: closed.answer }).toEqual({ status: 'success', answer: '12 EUR' });
  });

  it('the finishing step sets the answer; the verdict does not overwrite it', async () => {
    const c = controller();
    const ep = await c.start({ task: 'How much is it?', startUrl: 'https://shop.test/', tabId: 7 });
    const answered = await c.decide(ep.id, { kind: 'edit', action: 'send_msg_to_user("12 EUR")', step: 0 });
    expect({ status: answered.status, answer: answered.answer }).toEqual({ status: 'awaiting_verdict', answer: '12 EUR' });
    const closed = await c.finish(ep.id, 'success', { answer: 'other' });
    expect({ status: closed.status, answer: closed.answer, decision: closed.steps[0]!.chosen?.decision }).toEqual({ status: 'success', answer: '12 EUR', decision: 'edited' });
  });

  it('the protocol takes an optional, non-empty answer', () => {
    const req = UiRequests['episode.verdict'].req;
    expect(req.safeParse({ episodeId: 'e', verdict: 'success', runEvaluator: false, answer: '12 EUR' }).success).toBe(true);
    expect(req.safeParse({ episodeId: 'e', verdict: 'success', runEvaluator: false }).success).toBe(true);
    expect(req.safeParse({ episodeId: 'e', verdict: 'success', runEvaluator: false, answer: '  ' }).success).toBe(false);
  });
});

describe('"Task is done" while a proposal waits (issue 31)', () => {
  /** The panel's client, its requests validated as the background validates them, answered by the controller. */
  function panelClient(c: AgentController) {
    return createUiClient(async (message) => {
      const { type, ...payload } = message as { type: string };
      if (type === 'episode.decide') {
        const req = UiRequests['episode.decide'].req.parse(payload);
        return { ok: true, value: await c.decide(req.episodeId, req.decision) };
      }
      if (type === 'episode.verdict') {
        const req = UiRequests['episode.verdict'].req.parse(payload);
        return { ok: true, value: await c.finish(req.episodeId, req.verdict, req.answer !== undefined ? { answer: req.answer } : {}) };
      }
      throw new Error(`unexpected ${type}`);
    });
  }

  it('is the verdict: the finishing step is stored, and History counts neither an ask nor a correction', async () => {
    const c = controller();
    const ep = await c.start({ task: 'How much is it?', startUrl: 'https://shop.test/', tabId: 7 });
    expect(ep.status).toBe('awaiting_approval');
    const closed = await markDone(panelClient(c), ep, '12 EUR', false);
    const step = closed.steps[0]!;
    expect({ status: closed.status, answer: closed.answer }).toEqual({ status: 'success', answer: '12 EUR' });
    expect(step.chosen).toMatchObject({ semantic: 'send_msg_to_user("12 EUR")', decision: 'edited', done: true });
    expect(step.chosen?.correction).toBeUndefined();
    // The waiting proposal is not rejected by it.
    expect(step.rejected).toEqual([]);
    expect(attemptCosts(closed)).toEqual({ asks: 0, corrections: 0, modelCalls: 0, replayed: 0 });
  });

  it('a rejection before it still counts as a correction', async () => {
    const c = controller();
    const ep = await c.start({ task: 'How much is it?', startUrl: 'https://shop.test/', tabId: 7 });
    const afterReject = await c.decide(ep.id, { kind: 'reject', step: 0 });
    const closed = await markDone(panelClient(c), afterReject, '', false);
    expect(closed.status).toBe('success');
    expect(attemptCosts(closed)).toMatchObject({ asks: 0, corrections: 1 });
  });

  it('an edit typed by hand is still a correction, and "done" with another action is refused', async () => {
    const c = controller();
    const ep = await c.start({ task: 'How much is it?', startUrl: 'https://shop.test/', tabId: 7 });
    await expect(c.decide(ep.id, { kind: 'edit', action: 'click([1])', step: 0, done: true })).rejects.toThrow(/Task is done" finishes with send_msg_to_user/);
    const edited = await c.decide(ep.id, { kind: 'edit', action: 'send_msg_to_user("12 EUR")', step: 0 });
    expect(edited.steps[0]!.chosen).toMatchObject({ correction: 'edit' });
    expect(attemptCosts(edited)).toMatchObject({ asks: 1, corrections: 1 });
  });
});
