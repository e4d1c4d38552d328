/**
 * Show me and Take over, against a scripted page and a fixed policy: the
 * shown step becomes the pending step's executed action (a 'show'
 * correction) through the controller's decision path, the proposal it
 * replaces is rejected, and the agent proposes again; a take-over's steps are
 * kept, masked, and withheld from learners when marked "don't learn"; every
 * bad input ends teaching with a message and keeps the episode.
 */
import { describe, expect, it } from 'vitest';
import { AgentController, DecisionError, type AgentDeps } from '../../src/core/agent/agent-controller.ts';
import { TeachingError, TeachingSession, type TeachingPage } from '../../src/core/agent/teaching-session.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import type { FinishedEpisode, Learner } from '../../src/core/learning/learner.ts';
import type { Action, ActionResult } from '../../src/core/page/action.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import type { CandidatePolicy } from '../../src/core/policy/policy.ts';
import type { PageDriver } from '../../src/core/ports.ts';
import { DEFAULT_SETTINGS as DEFAULTS, type Settings } from '../../src/core/settings.ts';

const SETTINGS: Settings = { ...DEFAULTS, agent: { ...DEFAULTS.agent, selection: 'argmax' } };
const URL_ = 'https://shop.test/';
const TAB = 7;

const node = (ref: string, role: string, name: string): SnapshotNode => ({ ref, kind: 'interactive', role, name, states: {}, depth: 0, inViewport: true });

/** One page with a search box, a Search button and a Help link; whatever the person does happens outside it. */
class Page implements PageDriver {
  acted: Action[] = [];
  async observe(): Promise<PageObservation> {
    return {
      url: URL_, title: 'Shop', nodes: [node('1', 'searchbox', 'Search'), node('2', 'button', 'Search'), node('3', 'link', 'Help')],
      focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [], scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
    };
  }
  async act(action: Action): Promise<ActionResult> {
    this.acted.push(action);
    return { ok: true, navigated: false };
  }
}

/** Always proposes the Help link first, the button second. */
const policy: CandidatePolicy = {
  id: 'fixed',
  async propose() {
    const candidates = ([['click([3])', 2], ['click([2])', 1]] as const).map(([t, logit]) => {
      const parsed = parseAction(t);
      if (!parsed.ok) throw parsed.error;
      return { action: parsed.action, logit };
    });
    return { candidates, logitSource: 'offline', usage: { calls: 0, promptTokens: 0, completionTokens: 0 }, notes: [] };
  },
};

class FakeTab implements TeachingPage {
  calls: [number, boolean][] = [];
  url = URL_;
  failOn = false;
  async setRecording(tabId: number, on: boolean) {
    this.calls.push([tabId, on]);
    if (on && this.failOn) throw new Error('the page does not answer');
  }
  async settle() {
    return this.url;
  }
}

function setup(store = new InMemoryEpisodeStore()) {
  const page = new Page();
  const tab = new FakeTab();
  const learned: FinishedEpisode[] = [];
  const learner: Learner = { id: 'spy', learn: async (f: FinishedEpisode) => { learned.push(f); return null; } } as unknown as Learner;
  let id = 0;
  let t = 1000;
  const deps: AgentDeps = {
    episodes: store, pageFor: () => page, policy: () => policy, learners: () => [learner], evaluator: () => null,
    settings: () => SETTINGS, clock: { now: () => (t += 10) }, logger: { info: () => {}, warn: () => {}, error: () => {} }, newId: () => `ep-${++id}`,
  };
  const controller = new AgentController(deps);
  const teaching = new TeachingSession({ controller, episodes: store, page: tab, clock: deps.clock, logger: deps.logger });
  return { controller, teaching, page, tab, store, learned };
}

const click = (name: string, url = URL_) => ({ action: `click(<button "${name}">)`, url, title: 'Shop' });

describe('Show me', () => {
  it('records the shown click as the step\'s executed action (a "show" correction), rejects the proposal, and proposes again', async () => {
    const { controller, teaching, page, tab } = setup();
    const ep = await controller.start({ task: 'search', startUrl: URL_, tabId: TAB });
    expect(ep.steps[0]!.candidates[0]!.semantic).toBe('click(<link "Help">)');

    const on = await teaching.begin(ep.id, 'show');
    expect(on.teaching).toEqual({ mode: 'show', since: expect.any(Number) });
    expect(tab.calls).toEqual([[TAB, true]]);
    // While the person shows the step, the panel's decisions are refused, and pause changes nothing.
    await expect(controller.decide(ep.id, { kind: 'approve' })).rejects.toThrow(DecisionError);
    expect((await controller.pause(ep.id)).status).toBe('awaiting_approval');

    await teaching.record(TAB, click('Search'));
    const next = await controller.settled(ep.id);
    const taught = next.steps[0]!;
    expect(taught.chosen).toEqual({ action: 'click(<button "Search">)', semantic: 'click(<button "Search">)', decision: 'edited', correction: 'show' });
    expect(taught.rejected).toEqual(['click(<link "Help">)']);
    expect(taught.result).toEqual({ ok: true, navigated: false });
    // The person did it: the agent did not run anything.
    expect(page.acted).toEqual([]);
    expect(next.teaching).toBeUndefined();
    expect(tab.calls.at(-1)).toEqual([TAB, false]);
    // The episode goes on: a new proposal at step 2.
    expect(next.status).toBe('awaiting_approval');
    expect(next.steps).toHaveLength(2);
    expect(next.steps[1]!.chosen).toBeNull();
  });

  it('a shown action equal to the proposal is no rejection; a navigation it caused is recorded on the step', async () => {
    const { controller, teaching, tab } = setup();
    const ep = await controller.start({ task: 'search', startUrl: URL_, tabId: TAB });
    await teaching.begin(ep.id, 'show');
    tab.url = 'https://shop.test/help';
    await teaching.record(TAB, { action: 'click(<link "Help">)', url: URL_, title: 'Shop' });
    const done = await controller.settled(ep.id);
    expect(done.steps[0]!.rejected).toEqual([]);
    expect(done.steps[0]!.result).toEqual({ ok: true, navigated: true });
  });

  it('pick and edit record their correction kind; approve records none', async () => {
    const { controller } = setup();
    let ep = await controller.start({ task: 'search', startUrl: URL_, tabId: TAB });
    ep = await controller.decide(ep.id, { kind: 'pick', index: 1 });
    ep = await controller.decide(ep.id, { kind: 'edit', action: 'click(<button "Search">)' });
    ep = await controller.decide(ep.id, { kind: 'approve' });
    expect(ep.steps.slice(0, 3).map((s) => [s.chosen?.decision, s.chosen?.correction])).toEqual([['picked', 'pick'], ['edited', 'edit'], ['approved', undefined]]);
  });

  it('the learners see the shown step and the rejected proposal', async () => {
    const { controller, teaching, learned } = setup();
    const ep = await controller.start({ task: 'search', startUrl: URL_, tabId: TAB });
    await teaching.begin(ep.id, 'show');
    await teaching.record(TAB, click('Search'));
    await controller.settled(ep.id);
    await controller.stop(ep.id);
    const steps = learned[0]!.episode.steps;
    expect(steps[0]!.chosen?.correction).toBe('show');
    expect(steps[0]!.rejected).toEqual(['click(<link "Help">)']);
  });

  it('survives a worker restart: the teaching state is in the store', async () => {
    const first = setup();
    const ep = await first.controller.start({ task: 'search', startUrl: URL_, tabId: TAB });
    await first.teaching.begin(ep.id, 'show');
    const second = setup(first.store);
    expect((await second.teaching.teachingIn(TAB))?.id).toBe(ep.id);
    await second.teaching.record(TAB, click('Search'));
    expect((await second.controller.settled(ep.id)).steps[0]!.chosen?.correction).toBe('show');
  });

  it('needs a pending proposal, and says so when the page cannot record', async () => {
    const { controller, teaching, tab } = setup();
    const ep = await controller.start({ task: 'search', startUrl: URL_, tabId: TAB });
    tab.failOn = true;
    await expect(teaching.begin(ep.id, 'show')).rejects.toThrow(/Show me could not start: the page does not answer/);
    expect((await controller.get(ep.id)).teaching).toBeUndefined();
    await controller.finish(ep.id, 'failure');
    tab.failOn = false;
    await expect(teaching.begin(ep.id, 'show')).rejects.toThrow(TeachingError);
  });
});

describe('Show me: bad input ends it with a message; the episode and its proposal are kept', () => {
  async function showing() {
    const s = setup();
    const ep = await s.controller.start({ task: 'search', startUrl: URL_, tabId: TAB });
    await s.teaching.begin(ep.id, 'show');
    return { ...s, ep };
  }
  // When the page changed under it, the proposal was for the page before: the episode pauses, and Resume proposes afresh.
  const expectKept = (e: { status: string; teaching?: unknown; steps: { chosen: unknown; candidates: unknown[] }[]; error: string | null }, message: RegExp, status = 'awaiting_approval') => {
    expect(e.teaching).toBeUndefined();
    expect(e.status).toBe(status);
    expect(e.steps).toHaveLength(1);
    expect(e.steps[0]!.chosen).toBeNull();
    expect(e.steps[0]!.candidates).toHaveLength(2);
    expect(e.error).toMatch(/^Show me ended: /);
    expect(e.error).toMatch(message);
  };

  it('a step done in another tab', async () => {
    const { teaching, controller, ep } = await showing();
    await teaching.interrupt(ep.id, 'the step was done in another tab; teach in the tab Apprentice works in');
    expectKept(await controller.get(ep.id), /another tab/);
    // The proposal can still be decided.
    expect((await controller.decide(ep.id, { kind: 'approve' })).steps[0]!.chosen?.decision).toBe('approved');
  });

  it('a navigation that no recorded action caused', async () => {
    const { teaching, controller, ep, tab } = await showing();
    expect(await teaching.tabLoaded(TAB, 'https://shop.test/elsewhere')).toBe(true);
    const paused = await controller.get(ep.id);
    expectKept(paused, /the page changed without an action Apprentice could record \(https:\/\/shop\.test\/elsewhere\)/, 'paused');
    expect(paused.error).toMatch(/press Resume for a proposal on this page\.$/);
    expect(tab.calls.at(-1)).toEqual([TAB, false]);
    // Resume proposes afresh, in place of the stale proposal.
    const fresh = await controller.resume(ep.id);
    expect(fresh.status).toBe('awaiting_approval');
    expect(fresh.steps).toHaveLength(1);
  });

  it('a step recorded on another page than the proposal\'s', async () => {
    const { teaching, controller, ep } = await showing();
    await teaching.record(TAB, click('Search', 'https://shop.test/other'));
    expectKept(await controller.get(ep.id), /not on the page of the proposal/, 'paused');
  });

  it('an action the recorder cannot express', async () => {
    const { teaching, controller, ep } = await showing();
    await teaching.unrecordable(TAB, 'a file upload');
    expectKept(await controller.get(ep.id), /Apprentice cannot record a file upload/);
    await teaching.begin(ep.id, 'show');
    // A ref target is not the semantic form a recording must carry.
    await teaching.record(TAB, { action: 'click([2])', url: URL_, title: 'Shop' });
    expectKept(await controller.get(ep.id), /targets a ref/);
  });

  it('cancel goes back to the proposal without a message', async () => {
    const { teaching, controller, ep } = await showing();
    const back = await teaching.cancel(ep.id);
    expect(back.teaching).toBeUndefined();
    expect(back.status).toBe('awaiting_approval');
    expect(back.error).toBeNull();
    expect((await controller.get(ep.id)).steps[0]!.chosen).toBeNull();
  });
});

describe('Take over', () => {
  it('records several steps (secrets masked) and the agent proposes again after Continue', async () => {
    const { controller, teaching, learned } = setup();
    const ep = await controller.start({ task: 'search', startUrl: URL_, tabId: TAB });
    const on = await teaching.begin(ep.id, 'takeover');
    // The pending proposal (nothing rejected in it) is dropped: the person has the page.
    expect(on.steps).toHaveLength(0);
    await expect(controller.decide(ep.id, { kind: 'approve' })).rejects.toThrow(/taken over/);
    await teaching.record(TAB, { action: 'fill(<textbox "Password">, "hunter2")', url: URL_, title: 'Shop' });
    await teaching.record(TAB, click('Sign in', 'https://shop.test/login'));
    const after = await teaching.continueAfterTakeOver(ep.id, { learn: true });
    expect(after.teaching).toBeUndefined();
    const next = await controller.settled(ep.id);
    expect(next.steps.slice(0, 2).map((s) => [s.chosen?.semantic, s.chosen?.decision, s.takeOver])).toEqual([
      ['fill(<textbox "Password">, "{password}")', 'demonstrated', { learn: true }],
      ['click(<button "Sign in">)', 'demonstrated', { learn: true }],
    ]);
    expect(JSON.stringify(next)).not.toContain('hunter2');
    // The first step navigated: the second was on another page.
    expect(next.steps[0]!.result).toEqual({ ok: true, navigated: true });
    expect(next.status).toBe('awaiting_approval');
    expect(next.steps[2]!.chosen).toBeNull();
    await controller.stop(ep.id);
    expect(learned[0]!.episode.steps.map((s) => s.chosen?.semantic)).toContain('click(<button "Sign in">)');
  });

  it('"don\'t learn from this": the steps are kept in the history, and no learner receives them', async () => {
    const { controller, teaching, learned } = setup();
    const ep = await controller.start({ task: 'search', startUrl: URL_, tabId: TAB });
    await teaching.begin(ep.id, 'takeover');
    await teaching.record(TAB, click('I am not a robot'));
    await teaching.continueAfterTakeOver(ep.id, { learn: false });
    let next = await controller.settled(ep.id);
    next = await controller.decide(ep.id, { kind: 'approve' });
    const done = await controller.finish(next.id, 'success');
    expect(done.steps[0]!.takeOver).toEqual({ learn: false });
    expect(done.steps[0]!.chosen?.semantic).toBe('click(<button "I am not a robot">)');
    const received = learned[0]!.episode.steps.map((s) => s.chosen?.semantic);
    expect(received).not.toContain('click(<button "I am not a robot">)');
    expect(received[0]).toBe('click(<link "Help">)');
    expect(learned[0]!.rewards).toHaveLength(learned[0]!.episode.steps.length);
  });

  it('keeps a pending proposal the person already rejected part of; a page load re-arms the recorder', async () => {
    const { controller, teaching, tab } = setup();
    const ep = await controller.start({ task: 'search', startUrl: URL_, tabId: TAB });
    await controller.decide(ep.id, { kind: 'reject' });
    const on = await teaching.begin(ep.id, 'takeover');
    expect(on.steps[0]!.rejected).toEqual(['click(<link "Help">)']);
    await teaching.tabLoaded(TAB, 'https://shop.test/login');
    expect(tab.calls.at(-1)).toEqual([TAB, true]);
    expect((await controller.get(ep.id)).teaching?.mode).toBe('takeover');
    // Interrupted: the steps are kept and the episode pauses with the reason.
    const stopped = await teaching.interrupt(ep.id, 'the step was done in another tab; teach in the tab Apprentice works in');
    expect(stopped.status).toBe('paused');
    expect(stopped.error).toMatch(/^Take over ended: the step was done in another tab/);
  });
});
