/**
 * Decisions, verdicts and recorded actions are declared once (core
 * person-input.ts / episode.ts): what the protocol parses from a panel or a
 * content script is what the controller and the recorder take, unchanged.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type * as z from 'zod';
import { ContentRequests, UiRequests } from '../../src/protocol/messages.ts';
import { AgentController, DecisionError, type AgentDeps } from '../../src/core/agent/agent-controller.ts';
import { DecisionInputSchema, RecordedActionSchema } from '../../src/core/agent/person-input.ts';
import type { DemonstrationRecorder } from '../../src/core/agent/demonstration-recorder.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import type { Action, ActionResult } from '../../src/core/page/action.ts';
import type { PageObservation } from '../../src/core/page/observation.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import type { PageDriver } from '../../src/core/ports.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';

type WireDecision = z.infer<(typeof UiRequests)['episode.decide']['req']>['decision'];
type WireVerdict = z.infer<(typeof UiRequests)['episode.verdict']['req']>['verdict'];
type WireStop = z.infer<(typeof UiRequests)['demo.stop']['req']>['outcome'];
type WireStep = z.infer<(typeof ContentRequests)['demo.step']['req']>;

describe('the protocol and the controller share one declaration', () => {
  it('types: every message the protocol parses fits the controller, the recorder and the verdict', () => {
    expectTypeOf<WireDecision>().toExtend<Parameters<AgentController['decide']>[1]>();
    expectTypeOf<WireVerdict>().toEqualTypeOf<Parameters<AgentController['finish']>[1]>();
    expectTypeOf<WireStop>().toEqualTypeOf<Parameters<DemonstrationRecorder['stop']>[1]>();
    expectTypeOf<WireStep>().toEqualTypeOf<Parameters<DemonstrationRecorder['record']>[1]>();
  });

  const wire = [
    { kind: 'approve', step: 0, candidate: 'click(<button "Go">)' },
    { kind: 'pick', index: 1, step: 0, candidate: 'click(<link "Help">)' },
    { kind: 'edit', action: 'click([2])', step: 0 },
    { kind: 'reject', step: 0, candidate: 'click(<button "Go">)' },
    { kind: 'reject', index: 1, step: 0, candidate: 'click(<link "Help">)' },
  ];
  it('values: each panel decision parsed by the protocol is a controller decision, field for field', () => {
    for (const decision of wire) {
      const parsed = UiRequests['episode.decide'].req.parse({ episodeId: 'e', decision }).decision;
      expect(parsed).toEqual(decision);
      expect(DecisionInputSchema.parse(parsed)).toEqual(parsed);
    }
    // The panel cannot send what only the core may: a shown step, or a decision without names.
    expect(UiRequests['episode.decide'].req.safeParse({ episodeId: 'e', decision: { kind: 'show', action: 'click(<button "Go">)', url: 'https://a.test/', title: 'A' } }).success).toBe(false);
    expect(UiRequests['episode.decide'].req.safeParse({ episodeId: 'e', decision: { kind: 'approve' } }).success).toBe(false);
    const step = { action: 'click(<button "Go">)', url: 'https://a.test/', title: 'A', target: { role: 'button', name: 'Go', submits: true } };
    expect(ContentRequests['demo.step'].req.parse(step)).toEqual(RecordedActionSchema.parse(step));
  });

  it('runs: a parsed approve and reject are carried out by a real controller; a stale name is refused', async () => {
    const { controller, acted } = setup();
    let episode = await controller.start({ task: 'go', startUrl: 'https://a.test/', tabId: 1 });
    const parse = (decision: unknown) => UiRequests['episode.decide'].req.parse({ episodeId: episode.id, decision }).decision;
    episode = await controller.decide(episode.id, parse({ kind: 'reject', index: 1, step: 0, candidate: 'click(<link "Help">)' }), { awaitNext: false });
    expect(episode.steps[0]!.rejected).toEqual(['click(<link "Help">)']);
    await expect(controller.decide(episode.id, parse({ kind: 'approve', step: 0, candidate: 'click(<link "Help">)' }))).rejects.toBeInstanceOf(DecisionError);
    episode = await controller.decide(episode.id, parse({ kind: 'approve', step: 0, candidate: 'click(<button "Go">)' }), { awaitNext: false });
    expect(episode.steps[0]!.chosen?.decision).toBe('approved');
    expect(acted).toEqual([{ type: 'click', target: { kind: 'ref', ref: '1' } }]);
  });
});

function setup() {
  const acted: Action[] = [];
  const observation: PageObservation = {
    url: 'https://a.test/', title: 'A', focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [],
    scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
    nodes: [
      { ref: '1', kind: 'interactive', role: 'button', name: 'Go', states: {}, depth: 0, inViewport: true },
      { ref: '2', kind: 'interactive', role: 'link', name: 'Help', href: 'https://a.test/help', states: {}, depth: 0, inViewport: true },
    ],
  };
  const page: PageDriver = {
    observe: async () => observation,
    act: async (action: Action): Promise<ActionResult> => { acted.push(action); return { ok: true, navigated: false }; },
  };
  let id = 0;
  let t = 1000;
  const deps: AgentDeps = {
    episodes: new InMemoryEpisodeStore(),
    pageFor: () => page,
    policy: () => ({
      id: 'fixed',
      propose: async () => ({
        candidates: [['click([1])', 2], ['click([2])', 1]].map(([text, logit]) => {
          const parsed = parseAction(text as string);
          if (!parsed.ok) throw parsed.error;
          return { action: parsed.action, logit: logit as number };
        }),
        logitSource: 'offline', usage: { calls: 0, promptTokens: 0, completionTokens: 0 }, notes: [],
      }),
    }),
    learners: () => [],
    evaluator: () => null,
    settings: () => ({ ...DEFAULT_SETTINGS, agent: { ...DEFAULT_SETTINGS.agent, selection: 'argmax' } }),
    clock: { now: () => (t += 10) },
    logger: { info: () => {}, warn: () => {}, error: () => {} },
    newId: () => `ep-${++id}`,
  };
  return { controller: new AgentController(deps), acted };
}
