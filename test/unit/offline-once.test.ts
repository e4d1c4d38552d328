/**
 * Issue 31, errors that say what to do: when the model's answer is unusable (prose, not JSON), the person
 * may have this one step proposed by the offline policy, and the model proposes the next one again.
 */
import { describe, expect, it } from 'vitest';
import { AgentController, type AgentDeps } from '../../src/core/agent/agent-controller.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import { ModelOutputError } from '../../src/core/errors.ts';
import type { PageObservation } from '../../src/core/page/observation.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import { createOfflinePolicy } from '../../src/core/policy/offline-policy.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';

const page = {
  async observe(): Promise<PageObservation> {
    return {
      url: 'https://shop.test/', title: 'Shop', focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [],
      nodes: [{ ref: '1', kind: 'interactive', role: 'link', name: 'Wireless mouse', states: {}, depth: 0, inViewport: true }],
      scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
    };
  },
  async act() { return { ok: true as const, navigated: false }; },
};

function world(withOffline: boolean) {
  let t = 0;
  const model = {
    id: 'prosy',
    calls: 0,
    prose: true,
    async propose() {
      model.calls++;
      if (model.prose) throw new ModelOutputError('the answer contains no JSON object', 'Sure! I would click the mouse.');
      const parsed = parseAction('click([1])');
      if (!parsed.ok) throw parsed.error;
      return { candidates: [{ action: parsed.action, logit: 0 }], logitSource: 'verbalized' as const, usage: { calls: 1, promptTokens: 10, completionTokens: 5 }, notes: [] };
    },
  };
  const deps: AgentDeps = {
    episodes: new InMemoryEpisodeStore(), pageFor: () => page, learners: () => [], evaluator: () => null, policy: () => model,
    settings: () => DEFAULT_SETTINGS, clock: { now: () => (t += 10) }, logger: { info: () => {}, warn: () => {}, error: () => {} }, newId: () => 'ep-1',
    ...(withOffline ? { offlinePolicy: () => createOfflinePolicy() } : {}),
  };
  return { controller: new AgentController(deps), model };
}

describe('this step without the model', () => {
  it('after an unusable answer the episode pauses saying what to do; resumed offline once, the offline policy proposes, then the model again', async () => {
    const w = world(true);
    const failed = await w.controller.start({ task: 'Buy a wireless mouse', startUrl: 'https://shop.test/', tabId: 7 });
    expect(failed.status).toBe('paused');
    expect(failed.error).toBe("The model's answer could not be understood, even after a repair and a retry: the answer contains no JSON object. "
      + 'Turn on JSON mode (structured output) for this model, choose another model, or pick the Offline provider in Settings, then Resume.');
    expect(w.model.calls).toBe(1);

    const offline = await w.controller.resume(failed.id, { offlineOnce: true });
    expect(offline.status).toBe('awaiting_approval');
    expect(w.model.calls).toBe(1);
    expect(offline.steps.map((s) => [s.logitSource, s.modelCalls])).toEqual([['offline', 0]]);
    expect(offline.steps[0]!.candidates[0]!.semantic).toBe('click(<link "Wireless mouse">)');

    w.model.prose = false;
    const next = await w.controller.decide(offline.id, { kind: 'approve' });
    expect(w.model.calls).toBe(2);
    expect(next.steps.map((s) => s.logitSource)).toEqual(['offline', 'verbalized']);
  });

  it('a plain Resume asks the model again; without an offline policy wired, offlineOnce asks the model too', async () => {
    const plain = world(true);
    const failed = await plain.controller.start({ task: 'Buy a wireless mouse', startUrl: 'https://shop.test/', tabId: 7 });
    const again = await plain.controller.resume(failed.id);
    expect([again.status, plain.model.calls]).toEqual(['paused', 2]);

    const unwired = world(false);
    const failed2 = await unwired.controller.start({ task: 'Buy a wireless mouse', startUrl: 'https://shop.test/', tabId: 7 });
    const again2 = await unwired.controller.resume(failed2.id, { offlineOnce: true });
    expect([again2.status, unwired.model.calls]).toEqual(['paused', 2]);
  });
});
