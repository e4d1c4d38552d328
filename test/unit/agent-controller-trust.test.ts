/**
 * The approval flow under pressure: decisions that name the wrong step or
 * candidate, two approvals at once, a page that changed under the person, a
 * stop or verdict while an action runs, auto-approve after a navigation,
 * secrets in live episodes, a worker killed around the action, a full disk.
 */
import { describe, expect, it } from 'vitest';
import { AgentController, DecisionError, type AgentDeps } from '../../src/core/agent/agent-controller.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import type { Episode } from '../../src/core/episode/episode.ts';
import type { FinishedEpisode, Learner } from '../../src/core/learning/learner.ts';
import type { Action, ActionResult } from '../../src/core/page/action.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import type { CandidatePolicy, PolicyInput } from '../../src/core/policy/policy.ts';
import type { PageDriver } from '../../src/core/ports.ts';
import { DEFAULT_SETTINGS, type Settings } from '../../src/core/settings.ts';

const node = (ref: string, role: string, name: string, extra: Partial<SnapshotNode> = {}): SnapshotNode => ({
  ref, kind: 'interactive', role, name, states: {}, depth: 0, inViewport: true, ...extra,
});

/** A login-and-search page whose buttons can be swapped, on an origin that can change. */
class Page implements PageDriver {
  url = 'https://shop.test/';
  nodes: SnapshotNode[] = [
    node('1', 'searchbox', 'Search products'),
    node('2', 'button', 'Search'),
    node('9', 'textbox', 'Password', { inputType: 'password' }),
  ];
  acted: Action[] = [];
  /** When set, act() waits for it (an action in progress). */
  gate: Promise<void> | null = null;
  onAct: (() => void) | null = null;
  async observe(): Promise<PageObservation> {
    return {
      url: this.url, title: 'Shop', nodes: this.nodes, focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [],
      scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
    };
  }
  async act(action: Action): Promise<ActionResult> {
    this.onAct?.();
    if (this.gate) await this.gate;
    this.acted.push(action);
    return { ok: true, navigated: false };
  }
}

function policy(texts: string[], calls: PolicyInput[] = []): CandidatePolicy {
  return {
    id: 'fixed',
    async propose(input) {
      calls.push(input);
      const candidates = texts.map((t, i) => {
        const parsed = parseAction(t);
        if (!parsed.ok) throw parsed.error;
        return { action: parsed.action, logit: 2 - i };
      });
      return { candidates: candidates.slice(0, input.numCandidates), logitSource: 'offline', usage: { calls: 0, promptTokens: 0, completionTokens: 0 }, notes: [] };
    },
  };
}

let sharedIds = 0;
let sharedT = 1_000_000;

function setup(over: { page?: Page; store?: InMemoryEpisodeStore; settings?: Settings; learners?: Learner[]; texts?: string[]; calls?: PolicyInput[]; updates?: Episode[] } = {}) {
  const page = over.page ?? new Page();
  const store = over.store ?? new InMemoryEpisodeStore();
  let id = 0;
  let t = 1000;
  const deps: AgentDeps = {
    episodes: store,
    pageFor: () => page,
    policy: () => policy(over.texts ?? ['fill([1], "shirt")', 'click([2])', 'fill([9], "hunter2")'], over.calls),
    learners: () => over.learners ?? [],
    evaluator: () => null,
    settings: () => over.settings ?? DEFAULT_SETTINGS,
    clock: { now: () => (over.store ? (sharedT += 10) : (t += 10)) },
    logger: { info: () => {}, warn: () => {}, error: () => {} },
    // A store shared across setups (several attempts) needs ids unique across them.
    newId: () => (over.store ? `ep-shared-${++sharedIds}` : `ep-${++id}`),
    onUpdate: (e) => over.updates?.push(e),
  };
  return { controller: new AgentController(deps), page, store };
}

const start = (c: AgentController) => c.start({ task: 'find a shirt', startUrl: 'https://shop.test/', tabId: 7 });

describe('a decision names its step and candidate', () => {
  it('refuses a decision for another step or another candidate, and runs nothing', async () => {
    const { controller, page } = setup();
    const ep = await start(controller);
    const top = ep.steps[0]!.candidates[0]!.semantic;
    await expect(controller.decide(ep.id, { kind: 'approve', step: 1, candidate: top })).rejects.toThrow(/for step 2, but step 1 is pending/);
    await expect(controller.decide(ep.id, { kind: 'approve', step: 0, candidate: 'click(<button "Delete">)' })).rejects.toThrow(DecisionError);
    await expect(controller.decide(ep.id, { kind: 'pick', index: 1, step: 0, candidate: top })).rejects.toThrow(/proposal changed/);
    expect(page.acted).toEqual([]);
    const ok = await controller.decide(ep.id, { kind: 'approve', step: 0, candidate: top });
    expect(page.acted).toHaveLength(1);
    expect(ok.steps[0]!.chosen?.semantic).toBe(top);
  });

  it('two approvals sent at once run exactly one action', async () => {
    const { controller, page } = setup();
    const ep = await start(controller);
    const named = { kind: 'approve' as const, step: 0, candidate: ep.steps[0]!.candidates[0]!.semantic };
    const results = await Promise.allSettled([controller.decide(ep.id, named), controller.decide(ep.id, named)]);
    expect(page.acted).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1);
  });

  it('re-checks the element at act time: a ref that now names another element is not acted on', async () => {
    const { controller, page } = setup({ texts: ['click([2])'] });
    const ep = await start(controller);
    page.nodes = [node('1', 'searchbox', 'Search products'), node('2', 'button', 'Delete account')];
    const after = await controller.decide(ep.id, { kind: 'approve', step: 0, candidate: 'click(<button "Search">)' });
    expect(page.acted).toEqual([]);
    expect(after.status).toBe('paused');
    expect(after.error).toMatch(/Not run.*\[2\] is button "Delete account" now/);
  });

  it('re-checks the origin at act time', async () => {
    const { controller, page } = setup({ texts: ['click([2])'] });
    const ep = await start(controller);
    page.url = 'https://evil.test/';
    const after = await controller.decide(ep.id, { kind: 'approve', step: 0, candidate: 'click(<button "Search">)' });
    expect(page.acted).toEqual([]);
    expect(after.error).toMatch(/evil\.test/);
  });
});

describe('stop and verdicts while an action runs', () => {
  for (const how of ['stop', 'verdict'] as const) {
    it(`${how} during the action leaves the episode ended: no further proposal or action, learners learn once`, async () => {
      const learned: FinishedEpisode[] = [];
      const calls: PolicyInput[] = [];
      const { controller, page, store } = setup({ calls, learners: [{ id: 'spy', learn: async (f) => void learned.push(f) }] });
      const ep = await start(controller);
      let release!: () => void;
      page.gate = new Promise((r) => (release = r));
      let acting!: () => void;
      const started = new Promise<void>((r) => (acting = r));
      page.onAct = () => acting();
      const deciding = controller.decide(ep.id, { kind: 'approve', step: 0, candidate: ep.steps[0]!.candidates[0]!.semantic });
      await started;
      const ended = how === 'stop' ? await controller.stop(ep.id) : await controller.finish(ep.id, 'failure');
      release();
      await deciding.catch(() => undefined);
      await controller.settled(ep.id);
      const final = (await store.get(ep.id))!;
      expect(final.status).toBe(ended.status);
      expect(calls).toHaveLength(1); // no proposal after the stop
      expect(page.acted).toHaveLength(1);
      expect(learned).toHaveLength(1);
      await expect(controller.finish(ep.id, 'success')).rejects.toThrow(/already ended/);
      expect(learned).toHaveLength(1);
    });
  }
});

describe('the autonomy gate in the controller', () => {
  const earned: Settings = { ...DEFAULT_SETTINGS, agent: { ...DEFAULT_SETTINGS.agent, selection: 'argmax', askModes: { 'https://shop.test': 'unapproved-only' } } };

  it('a never-approved action asks, and the step says why', async () => {
    const { controller, page } = setup({ settings: earned, texts: ['click([2])'] });
    const ep = await start(controller);
    expect(page.acted).toEqual([]);
    expect(ep.status).toBe('awaiting_approval');
    expect(ep.steps[0]!.autonomy).toEqual({ ran: false, reason: 'you have not approved this here yet' });
  });

  it('applies the mode of the origin the page is on now: not after a navigation to another origin', async () => {
    const page = new Page();
    page.url = 'https://other.test/';
    const { controller } = setup({ page, settings: earned, texts: ['click([2])'] });
    const ep = await start(controller);
    expect(page.acted).toEqual([]);
    expect(ep.steps[0]!.autonomy?.reason).toBe('this site is set to ask every step');
  });

  it('an action approved twice runs unasked; a rejection since makes it ask again', async () => {
    const store = new InMemoryEpisodeStore();
    const page = new Page();
    for (let i = 0; i < 2; i++) {
      const { controller } = setup({ page, store, settings: earned, texts: ['click([2])'] });
      const ep = await start(controller);
      await controller.decide(ep.id, { kind: 'approve' });
      await controller.stop(ep.id);
    }
    const third = setup({ page, store, settings: earned, texts: ['click([2])'] });
    let ep = await start(third.controller);
    expect(ep.steps[0]!.chosen?.decision).toBe('auto');
    // The same action again on the same page in the same task (a second "Add to cart") is a new state: it asks.
    expect(ep.status).toBe('awaiting_approval');
    expect(ep.steps.at(-1)!.autonomy).toEqual({ ran: false, reason: 'it already ran on this page in this task; a repeat asks' });
    await third.controller.stop(ep.id);
    // The person rejects it once: it asks again, however often it was approved before.
    const fifth = setup({ page, store, settings: { ...earned, agent: { ...earned.agent, askModes: { 'https://shop.test': 'every-step' } } }, texts: ['click([2])', 'fill([1], "x")'] });
    ep = await start(fifth.controller);
    ep = await fifth.controller.decide(ep.id, { kind: 'reject', index: 0 });
    await fifth.controller.stop(ep.id);
    const sixth = setup({ page, store, settings: earned, texts: ['click([2])'] });
    ep = await start(sixth.controller);
    expect(ep.status).toBe('awaiting_approval');
    expect(ep.steps[0]!.autonomy?.reason).toBe('you rejected it here; it needs 2 approvals after that');
  });

  it('an approved button that now sits in a form going elsewhere asks, saying what changed', async () => {
    const store = new InMemoryEpisodeStore();
    const page = new Page();
    page.nodes = [node('2', 'button', 'Search', { inForm: true, submits: true, formAction: 'https://shop.test/search', formMethod: 'get' })];
    for (let i = 0; i < 2; i++) {
      const { controller } = setup({ page, store, settings: earned, texts: ['click([2])'] });
      const ep = await start(controller);
      await controller.decide(ep.id, { kind: 'approve' });
      await controller.stop(ep.id);
    }
    page.nodes = [node('2', 'button', 'Search', { inForm: true, submits: true, formAction: 'https://shop.test/account/delete', formMethod: 'post' })];
    const { controller } = setup({ page, store, settings: earned, texts: ['click([2])'] });
    const ep = await start(controller);
    expect(ep.status).toBe('awaiting_approval');
    expect(ep.steps[0]!.autonomy?.reason).toBe('the element changed since you approved it: its form goes to https://shop.test/account/delete, not https://shop.test/search; its form method is post, not get');
  });
});

describe('an action that timed out', () => {
  it('goes back to the person as "outcome unknown" and is never re-run unasked, however often it was approved', async () => {
    const store = new InMemoryEpisodeStore();
    const page = new Page();
    const earned: Settings = { ...DEFAULT_SETTINGS, agent: { ...DEFAULT_SETTINGS.agent, selection: 'argmax', askModes: { 'https://shop.test': 'unapproved-only' } } };
    for (let i = 0; i < 2; i++) {
      const { controller } = setup({ page, store, settings: earned, texts: ['click([2])'] });
      const ep = await start(controller);
      await controller.decide(ep.id, { kind: 'approve' });
      await controller.stop(ep.id);
    }
    const slow = new Page();
    const acts: Action[] = [];
    slow.act = async (action) => {
      acts.push(action);
      return { ok: false, code: 'timeout', message: 'the action took longer than 15 s; it may or may not have run' };
    };
    const { controller } = setup({ page: slow, store, settings: earned, texts: ['click([2])'] });
    let ep = await start(controller);
    // Earned: it ran by itself once, timed out, and the episode paused.
    expect(acts).toHaveLength(1);
    expect(ep.status).toBe('paused');
    expect(ep.steps[0]!.result).toEqual({ ok: false, code: 'outcome_unknown', message: 'the action took longer than 15 s; it may or may not have run' });
    expect(ep.error).toBe('Outcome unknown: click(<button "Search">) did not answer in time; it may or may not have run. Check the page, then resume.');
    ep = await controller.resume(ep.id);
    expect(acts).toHaveLength(1);
    expect(ep.status).toBe('awaiting_approval');
    expect(ep.steps.at(-1)!.autonomy).toEqual({ ran: false, reason: 'its last run in this task has an unknown outcome' });
  });
});

describe('secrets in live episodes', () => {
  it('a password typed in the task is masked in the store and the prompt, and typed only into a password field', async () => {
    const calls: PolicyInput[] = [];
    const settings: Settings = { ...DEFAULT_SETTINGS, agent: { ...DEFAULT_SETTINGS.agent, selection: 'argmax' } };
    const { controller, page, store } = setup({ settings, calls, texts: ['fill([9], "{password}")', 'fill([1], "{password}")'] });
    let ep = await controller.start({ task: 'Sign in with password hunter2 and search', startUrl: 'https://shop.test/', tabId: 7 });
    expect(ep.task).toBe('Sign in with password {password} and search');
    expect(JSON.stringify(calls)).not.toContain('hunter2');
    ep = await controller.decide(ep.id, { kind: 'approve' });
    expect(page.acted[0]).toEqual({ type: 'fill', target: { kind: 'ref', ref: '9' }, text: 'hunter2' });
    // The task's password is never typed into a field that is not a password field (a hijacked model's way out).
    const leak = ep.steps.at(-1)!.candidates.findIndex((c) => c.action === 'fill([1], "{password}")');
    await expect(controller.decide(ep.id, { kind: 'pick', index: leak })).rejects.toThrow(DecisionError);
    expect(page.acted).toHaveLength(1);
    expect(JSON.stringify(await store.all())).not.toContain('hunter2');
  });

  it('text typed into a password field runs, but is masked in the store, the history and what learners get', async () => {
    const learned: FinishedEpisode[] = [];
    const calls: PolicyInput[] = [];
    // argmax: the fill (the policy's first) is the proposal approved below.
    const settings: Settings = { ...DEFAULT_SETTINGS, agent: { ...DEFAULT_SETTINGS.agent, selection: 'argmax' } };
    const { controller, page, store } = setup({ settings, calls, texts: ['fill([9], "hunter2")', 'click([2])'], learners: [{ id: 'spy', learn: async (f) => void learned.push(f) }] });
    let ep = await start(controller);
    expect(JSON.stringify(ep)).not.toContain('hunter2');
    ep = await controller.decide(ep.id, { kind: 'approve', step: 0, candidate: ep.steps[0]!.candidates[0]!.semantic });
    expect(page.acted[0]).toEqual({ type: 'fill', target: { kind: 'ref', ref: '9' }, text: 'hunter2' });
    await controller.finish(ep.id, 'success');
    expect(JSON.stringify(await store.all())).not.toContain('hunter2');
    expect(JSON.stringify(learned)).not.toContain('hunter2');
    expect(JSON.stringify(calls.map((c) => c.history))).not.toContain('hunter2');
    expect((await store.get(ep.id))!.steps[0]!.chosen?.semantic).toBe('fill(<textbox "Password">, "{password}")');
  });

  it('an edited action typing a secret runs, and is stored masked', async () => {
    const { controller, page, store } = setup({ texts: ['click([2])'] });
    const ep = await start(controller);
    await controller.decide(ep.id, { kind: 'edit', action: 'fill([9], "s3cret!")', step: 0 });
    expect(page.acted[0]).toMatchObject({ type: 'fill', text: 's3cret!' });
    expect(JSON.stringify(await store.all())).not.toContain('s3cret!');
  });
});

describe('a worker killed around the action', () => {
  it('killed after the approval was saved but before the action started: the action runs exactly once after the restart', async () => {
    const store = new InMemoryEpisodeStore();
    const page = new Page();
    const first = setup({ store, page });
    const ep = await start(first.controller);
    // The approval is saved, then the worker dies before it starts acting (act never reached).
    const approved: Episode = { ...ep, status: 'running', steps: [{ ...ep.steps[0]!, chosen: { action: ep.steps[0]!.candidates[0]!.action, semantic: ep.steps[0]!.candidates[0]!.semantic, decision: 'approved' } }] };
    await store.put(approved);
    const second = setup({ store, page });
    await second.controller.resumeUnfinished();
    const after = await second.controller.settled(ep.id);
    expect(page.acted).toHaveLength(1);
    expect(after.steps[0]!.result).toEqual({ ok: true, navigated: false });
  });

  it('killed while the action ran: the step comes back as "outcome unknown", never run twice', async () => {
    const store = new InMemoryEpisodeStore();
    const page = new Page();
    const first = setup({ store, page });
    const ep = await start(first.controller);
    page.gate = new Promise(() => {}); // the action never returns: the worker died during it
    void first.controller.decide(ep.id, { kind: 'approve', step: 0, candidate: ep.steps[0]!.candidates[0]!.semantic });
    await new Promise((r) => setTimeout(r, 20));
    page.gate = null;
    const second = setup({ store, page });
    await second.controller.resumeUnfinished();
    const after = await second.controller.settled(ep.id);
    expect(page.acted).toHaveLength(0);
    expect(after.status).toBe('paused');
    expect(after.steps[0]!.result).toMatchObject({ ok: false, code: 'outcome_unknown' });
    expect(after.error).toMatch(/outcome unknown/i);
  });
});

describe('a full disk', () => {
  it('pauses the episode and says why', async () => {
    const store = new InMemoryEpisodeStore();
    const updates: Episode[] = [];
    const { controller } = setup({ store, updates });
    const ep = await start(controller);
    const put = store.put.bind(store);
    store.put = async (e) => {
      if (e.steps.some((s) => s.chosen)) throw Object.assign(new Error('the browser storage for Apprentice is full'), { name: 'StorageFullError' });
      return put(e);
    };
    const after = await controller.decide(ep.id, { kind: 'approve', step: 0, candidate: ep.steps[0]!.candidates[0]!.semantic });
    expect(after.status).toBe('paused');
    expect(after.error).toMatch(/storage for Apprentice is full/);
    expect(updates.at(-1)?.error).toMatch(/storage for Apprentice is full/);
  });
});
