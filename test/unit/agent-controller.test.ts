/**
 * The step state machine against a scripted page and a fixed policy: every
 * transition, checkpoints across a simulated worker restart, and the bad
 * inputs (unparseable edit, closed tab, exhausted proposals).
 */
import { describe, expect, it, vi } from 'vitest';
import { AgentController, DecisionError, type AgentDeps } from '../../src/core/agent/agent-controller.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import type { Learner, FinishedEpisode } from '../../src/core/learning/learner.ts';
import type { Action, ActionResult } from '../../src/core/page/action.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import type { CandidatePolicy, PolicyInput } from '../../src/core/policy/policy.ts';
import type { PageDriver } from '../../src/core/ports.ts';
import { DEFAULT_SETTINGS as SAMPLING_DEFAULTS, type Settings } from '../../src/core/settings.ts';

// These tests script the top candidate's path: the proposal is the argmax (sampling is tested in agent-learning-loop.test.ts).
const DEFAULT_SETTINGS: Settings = { ...SAMPLING_DEFAULTS, agent: { ...SAMPLING_DEFAULTS.agent, selection: 'argmax' } };

const node = (ref: string, role: string, name: string, extra: Partial<SnapshotNode> = {}): SnapshotNode => ({
  ref, kind: 'interactive', role, name, states: {}, depth: 0, inViewport: true, ...extra,
});

/** A two-page shop: a search page and a results page. */
class ScriptedPage implements PageDriver {
  page: 'search' | 'results' = 'search';
  query = '';
  acted: Action[] = [];
  closed = false;
  async observe(): Promise<PageObservation> {
    if (this.closed) throw new Error('No tab with id: 7');
    const nodes = this.page === 'search'
      ? [node('1', 'searchbox', 'Search products', { value: this.query }), node('2', 'button', 'Search'), node('3', 'link', 'Help', { href: 'https://shop.test/help' }), node('9', 'textbox', 'Password', { inputType: 'password' })]
      : [node('4', 'link', 'Blue shirt', { href: 'https://shop.test/p/1' }), node('5', 'link', 'Red shirt', { href: 'https://shop.test/p/2' })];
    return {
      url: this.page === 'search' ? 'https://shop.test/' : `https://shop.test/search?q=${this.query}`,
      title: 'Shop', nodes, focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [],
      scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
    };
  }
  async act(action: Action): Promise<ActionResult> {
    this.acted.push(action);
    if (action.type === 'fill') this.query = action.text;
    if (action.type === 'click' && action.target.kind === 'ref' && action.target.ref === '2') {
      this.page = 'results';
      return { ok: true, navigated: true };
    }
    return { ok: true, navigated: false };
  }
}

/** Proposes fixed actions with fixed logits, per page. */
function fixedPolicy(calls: PolicyInput[] = []): CandidatePolicy {
  return {
    id: 'fixed',
    async propose(input) {
      calls.push(input);
      const onSearch = input.observation.nodes.some((n) => n.ref === '1');
      const searched = input.history.length > 0;
      const texts = onSearch
        ? searched
          ? [['click([2])', 2], ['click([3])', 1], ['fill([1], "shirt")', 0.5]]
          : [['fill([1], "shirt")', 2], ['click([3])', 1], ['click([2])', 0.5], ['fill([9], "hunter2")', 0.1]]
        : [['send_msg_to_user("Red shirt")', 1.5], ['click([4])', 1], ['click([5])', 0.2]];
      const candidates = texts.map(([t, z]) => {
        const parsed = parseAction(t as string);
        if (!parsed.ok) throw parsed.error;
        return { action: parsed.action, logit: z as number };
      });
      return { candidates: candidates.slice(0, input.numCandidates), logitSource: 'offline', usage: { calls: 0, promptTokens: 0, completionTokens: 0 }, notes: [] };
    },
  };
}

let sharedIds = 0;
let sharedT = 1_000_000;

function setup(overrides: { settings?: Settings; learners?: Learner[]; page?: ScriptedPage; store?: InMemoryEpisodeStore; policyCalls?: PolicyInput[] } = {}) {
  const page = overrides.page ?? new ScriptedPage();
  const store = overrides.store ?? new InMemoryEpisodeStore();
  let id = 0;
  let t = 1000;
  const deps: AgentDeps = {
    episodes: store,
    pageFor: () => page,
    policy: () => fixedPolicy(overrides.policyCalls),
    learners: () => overrides.learners ?? [],
    evaluator: () => null,
    settings: () => overrides.settings ?? DEFAULT_SETTINGS,
    clock: { now: () => (overrides.store ? (sharedT += 10) : (t += 10)) },
    logger: { info: () => {}, warn: () => {}, error: () => {} },
    // A store shared across setups (several attempts) needs ids unique across them.
    newId: () => (overrides.store ? `ep-shared-${++sharedIds}` : `ep-${++id}`),
  };
  return { controller: new AgentController(deps), page, store, deps };
}

describe('AgentController', () => {
  it('proposes candidates ranked by adjusted probability, in ref and semantic form', async () => {
    const { controller } = setup();
    const ep = await controller.start({ task: 'find a shirt', startUrl: 'https://shop.test/', tabId: 7 });
    expect(ep.status).toBe('awaiting_approval');
    expect(ep.origin).toBe('https://shop.test');
    expect(ep.attempt).toBe(1);
    const step = ep.steps[0]!;
    expect(step.candidates.map((c) => c.action)).toEqual(['fill([1], "shirt")', 'click([3])', 'click([2])']);
    expect(step.candidates.map((c) => c.semantic)).toEqual(['fill(<searchbox "Search products">, "shirt")', 'click(<link "Help">)', 'click(<button "Search">)']);
    const z = [2, 1, 0.5];
    const sum = z.reduce((a, b) => a + Math.exp(b), 0);
    expect(step.candidates[0]!.baseProb).toBeCloseTo(Math.exp(2) / sum, 12);
    expect(step.candidates[0]!.adjustedLogit).toBe(2);
    expect(step.regUrl).toBe('/');
    expect(step.chosen).toBeNull();
  });

  it('approve runs the top action and proposes the next step; navigation is followed', async () => {
    const { controller, page } = setup();
    let ep = await controller.start({ task: 'find a shirt', startUrl: 'https://shop.test/', tabId: 7 });
    ep = await controller.decide(ep.id, { kind: 'approve' });
    expect(page.acted).toEqual([{ type: 'fill', target: { kind: 'ref', ref: '1' }, text: 'shirt' }]);
    expect(ep.steps[0]!.chosen).toEqual({ action: 'fill([1], "shirt")', semantic: 'fill(<searchbox "Search products">, "shirt")', decision: 'approved', target: { role: 'searchbox', name: 'Search products', submits: false } });
    expect(ep.steps[1]!.effectiveState).toEqual(['fill(<searchbox "Search products">, "shirt")']);
    expect(ep.steps[1]!.candidates[0]!.action).toBe('click([2])');
    ep = await controller.decide(ep.id, { kind: 'pick', index: 0 });
    expect(ep.steps[1]!.chosen?.decision).toBe('picked');
    expect(ep.steps[2]!.url).toBe('https://shop.test/search?q=shirt');
    expect(ep.steps[2]!.effectiveState).toEqual([]);
  });

  it('reject marks the candidate; approve then takes the best open one; rejecting all re-proposes without them', async () => {
    const calls: PolicyInput[] = [];
    const { controller, page } = setup({ policyCalls: calls });
    let ep = await controller.start({ task: 'find a shirt', startUrl: 'https://shop.test/', tabId: 7 });
    ep = await controller.decide(ep.id, { kind: 'reject' });
    expect(ep.status).toBe('awaiting_approval');
    expect(ep.steps[0]!.rejected).toEqual(['fill(<searchbox "Search products">, "shirt")']);
    expect(page.acted).toEqual([]);
    ep = await controller.decide(ep.id, { kind: 'reject' });
    ep = await controller.decide(ep.id, { kind: 'reject', index: 2 });
    // All three rejected: the policy is asked again for more, and the rejected ones are excluded.
    expect(calls).toHaveLength(2);
    expect(calls[1]!.numCandidates).toBe(6);
    expect(ep.steps).toHaveLength(1);
    // The password candidate is stored masked (issue 11: secrets never reach the store).
    expect(ep.steps[0]!.candidates.map((c) => c.action)).toEqual(['fill([9], "{password}")']);
    expect(ep.steps[0]!.rejected).toHaveLength(3);
  });

  it('an edit that does not parse or does not fit changes nothing', async () => {
    const { controller, store } = setup();
    const ep = await controller.start({ task: 'find a shirt', startUrl: 'https://shop.test/', tabId: 7 });
    const before = await store.get(ep.id);
    await expect(controller.decide(ep.id, { kind: 'edit', action: 'click([1' })).rejects.toThrow(DecisionError);
    await expect(controller.decide(ep.id, { kind: 'edit', action: 'click(<button "Checkout">)' })).rejects.toThrow(/does not fit this page/);
    expect(await store.get(ep.id)).toEqual(before);
    const edited = await controller.decide(ep.id, { kind: 'edit', action: 'click(<button "search">)' });
    // The element as the person chose it is kept with the decision: what earned autonomy and the act-time check compare.
    expect(edited.steps[0]!.chosen).toEqual({ action: 'click([2])', semantic: 'click(<button "Search">)', decision: 'edited', correction: 'edit', target: { role: 'button', name: 'Search', submits: false } });
  });

  it('resumes from the checkpoint after the worker is killed', async () => {
    const page = new ScriptedPage();
    const store = new InMemoryEpisodeStore();
    const first = setup({ page, store });
    const ep = await first.controller.start({ task: 'find a shirt', startUrl: 'https://shop.test/', tabId: 7 });
    // A new controller = a restarted worker with fresh module state; only the store survives.
    const second = setup({ page, store });
    const next = await second.controller.decide(ep.id, { kind: 'approve' });
    expect(next.steps).toHaveLength(2);
    expect(page.acted).toHaveLength(1);
  });

  it('a closed tab pauses the episode with a clear message and keeps it', async () => {
    const { controller, page } = setup();
    let ep = await controller.start({ task: 'find a shirt', startUrl: 'https://shop.test/', tabId: 7 });
    page.closed = true;
    ep = await controller.decide(ep.id, { kind: 'approve' });
    expect(ep.status).toBe('paused');
    expect(ep.error).toMatch(/No tab with id: 7/);
    expect(ep.steps).toHaveLength(1);
    page.closed = false;
    ep = await controller.resume(ep.id);
    expect(ep.status).toBe('awaiting_approval');
    expect(ep.steps).toHaveLength(2);
  });

  it('a terminal action waits for the verdict; the verdict assigns rewards and every learner learns', async () => {
    const learned: FinishedEpisode[] = [];
    const learner: Learner = { id: 'spy', learn: async (f) => { learned.push(f); } };
    const failing: Learner = { id: 'broken', learn: async () => { throw new Error('disk full'); } };
    const { controller } = setup({ learners: [failing, learner] });
    let ep = await controller.start({ task: 'find a shirt', startUrl: 'https://shop.test/', tabId: 7 });
    ep = await controller.decide(ep.id, { kind: 'edit', action: 'click([2])' });
    ep = await controller.decide(ep.id, { kind: 'edit', action: 'send_msg_to_user("Red shirt")' });
    expect(ep.status).toBe('awaiting_verdict');
    expect(ep.answer).toBe('Red shirt');
    ep = await controller.finish(ep.id, 'success');
    expect(ep.status).toBe('success');
    expect(learned).toHaveLength(1);
    // approve 0.2 + half the success (0.5) before the last step; approve + full success on the last.
    expect(learned[0]!.rewards).toEqual([0.7, 1.2]);
    expect(ep.steps.map((s) => s.reward)).toEqual([0.7, 1.2]);
    await expect(controller.finish(ep.id, 'failure')).rejects.toThrow(/already ended/);
  });

  it('earned autonomy: asks at every step until each was approved twice, then runs those by itself', async () => {
    const settings: Settings = { ...DEFAULT_SETTINGS, agent: { ...DEFAULT_SETTINGS.agent, askModes: { 'https://shop.test': 'unapproved-only' } } };
    const store = new InMemoryEpisodeStore();
    const attempt = async () => {
      const { controller, page } = setup({ settings, store });
      let ep = await controller.start({ task: 'find a shirt', startUrl: 'https://shop.test/', tabId: 7 });
      let asked = 0;
      while (ep.status === 'awaiting_approval') {
        asked++;
        ep = await controller.decide(ep.id, { kind: 'approve' });
      }
      expect(ep.status).toBe('awaiting_verdict');
      await controller.finish(ep.id, 'success');
      return { asked, ep, page };
    };
    expect((await attempt()).asked).toBe(3);
    expect((await attempt()).asked).toBe(3);
    const third = await attempt();
    // fill, search click and the answer were each approved twice on their page, same target.
    expect(third.asked).toBe(0);
    expect(third.page.acted.map((a) => a.type)).toEqual(['fill', 'click', 'send_msg_to_user']);
    expect(third.ep.steps.map((s) => s.chosen?.decision)).toEqual(['auto', 'auto', 'auto']);
    expect(third.ep.steps[0]!.autonomy).toEqual({ ran: true, reason: 'you approved it 2× on this page, same target' });
  });

  it('stops at the step limit and asks for a verdict', async () => {
    const settings: Settings = { ...DEFAULT_SETTINGS, agent: { ...DEFAULT_SETTINGS.agent, maxSteps: 1 } };
    const { controller } = setup({ settings });
    let ep = await controller.start({ task: 'find a shirt', startUrl: 'https://shop.test/', tabId: 7 });
    ep = await controller.decide(ep.id, { kind: 'approve' });
    expect(ep.status).toBe('awaiting_verdict');
    expect(ep.error).toMatch(/step limit/);
  });

  it('a failing learner prompt section is noted, not fatal', async () => {
    const learner: Learner = { id: 'cer', shapeRequest: vi.fn(async () => { throw new Error('buffer corrupt'); }) };
    const { controller } = setup({ learners: [learner] });
    const ep = await controller.start({ task: 'find a shirt', startUrl: 'https://shop.test/', tabId: 7 });
    expect(ep.status).toBe('awaiting_approval');
    expect(ep.steps[0]!.learningNotes).toContain('cer: replay skipped (buffer corrupt)');
  });
});
