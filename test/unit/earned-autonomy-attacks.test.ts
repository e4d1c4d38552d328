/**
 * The autonomy gate against a hostile page and a hijacked model, with the
 * person having approved benign actions twice: each case is an unapproved
 * action that must not run without asking.
 */
import { describe, expect, it } from 'vitest';
import { AgentController, type AgentDeps } from '../../src/core/agent/agent-controller.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import type { Action, ActionResult } from '../../src/core/page/action.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import type { CandidatePolicy } from '../../src/core/policy/policy.ts';
import type { PageDriver } from '../../src/core/ports.ts';
import { fingerprintOf, type TargetFingerprint } from '../../src/core/page/target-fingerprint.ts';
import { targetChanged } from '../../src/core/agent/decision-guard.ts';
import { earnedAutonomy } from '../../src/core/autonomy/earned-autonomy.ts';
import { actionKey, personDecisionsOf, type PersonDecision } from '../../src/core/autonomy/approval-history.ts';
import { asImportedEpisode } from '../../src/core/archive/memory-archive.ts';
import { recordedStepRecord, type Episode } from '../../src/core/episode/episode.ts';
import type { AlwaysAskMark } from '../../src/core/autonomy/always-ask.ts';
import { DEFAULT_SETTINGS, type Settings } from '../../src/core/settings.ts';

const node = (ref: string, role: string, name: string, extra: Partial<SnapshotNode> = {}): SnapshotNode => ({
  ref, kind: 'interactive', role, name, states: {}, depth: 0, inViewport: true, ...extra,
});

/** A page whose nodes, focus and URL the attacker sets. */
class Page implements PageDriver {
  url = 'https://shop.test/';
  nodes: SnapshotNode[] = [];
  focusedRef: string | null = null;
  acted: { action: Action; expect?: TargetFingerprint | undefined }[] = [];
  async observe(): Promise<PageObservation> {
    return {
      url: this.url, title: 'Shop', nodes: this.nodes, focusedRef: this.focusedRef, offscreen: { above: 0, below: 0 }, omissions: [],
      scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
    };
  }
  async act(action: Action, _signal?: AbortSignal, expect?: TargetFingerprint): Promise<ActionResult> {
    this.acted.push({ action, expect });
    return { ok: true, navigated: false };
  }
}

const fixed = (texts: string[]): CandidatePolicy => ({
  id: 'fixed',
  async propose(input) {
    const candidates = texts.map((t, i) => {
      const parsed = parseAction(t);
      if (!parsed.ok) throw parsed.error;
      return { action: parsed.action, logit: 2 - i };
    });
    return { candidates: candidates.slice(0, input.numCandidates), logitSource: 'offline', usage: { calls: 0, promptTokens: 0, completionTokens: 0 }, notes: [] };
  },
});

const earned: Settings = { ...DEFAULT_SETTINGS, agent: { ...DEFAULT_SETTINGS.agent, selection: 'argmax', askModes: { 'https://shop.test': 'unapproved-only' } } };

let ids = 0;
let t = 1_000_000;
function controller(page: Page, store: InMemoryEpisodeStore, texts: string[], settings: Settings = earned): AgentController {
  const deps: AgentDeps = {
    episodes: store,
    pageFor: () => page,
    policy: () => fixed(texts),
    learners: () => [],
    evaluator: () => null,
    settings: () => settings,
    clock: { now: () => (t += 10) },
    logger: { info: () => {}, warn: () => {}, error: () => {} },
    newId: () => `ep-${++ids}`,
  };
  return new AgentController(deps);
}

const start = (c: AgentController, startUrl = 'https://shop.test/') => c.start({ task: 'find a shirt', startUrl, tabId: 7 });

/** The person approves the proposal by hand, in `times` tasks of their own. */
async function approveInTasks(page: Page, store: InMemoryEpisodeStore, texts: string[], times = 2): Promise<void> {
  const every: Settings = { ...earned, agent: { ...earned.agent, askModes: { 'https://shop.test': 'every-step' } } };
  for (let i = 0; i < times; i++) {
    const c = controller(page, store, texts, every);
    const ep = await start(c);
    await c.decide(ep.id, { kind: 'approve' });
    await c.stop(ep.id);
  }
}

describe('a press without a target acts on the focused element, which the page chooses', () => {
  const search = node('1', 'searchbox', 'Search products', { inForm: true, formAction: 'https://shop.test/search', formMethod: 'get' });

  it('approvals of Enter in the search box do not run Enter in another form the page focused', async () => {
    const store = new InMemoryEpisodeStore();
    const page = new Page();
    page.nodes = [search];
    page.focusedRef = '1';
    await approveInTasks(page, store, ['press("Enter")']);
    // The page moves focus into a same-origin form that deletes the account.
    page.nodes = [search, node('5', 'textbox', 'Reason', { inForm: true, formAction: 'https://shop.test/account/delete', formMethod: 'post' })];
    page.focusedRef = '5';
    page.acted = [];
    const ep = await start(controller(page, store, ['press("Enter")']));
    expect(page.acted).toEqual([]);
    expect(ep.status).toBe('awaiting_approval');
    expect(ep.steps[0]!.autonomy).toEqual({
      ran: false,
      reason: 'the element changed since you approved it: its role is textbox, not searchbox; its name is "Reason", not "Search products"; its form goes to https://shop.test/account/delete, not https://shop.test/search; its form method is post, not get',
    });
  });

  it('Enter in a focused field whose form goes to another origin always asks', async () => {
    const store = new InMemoryEpisodeStore();
    const page = new Page();
    page.nodes = [search];
    page.focusedRef = '1';
    await approveInTasks(page, store, ['press("Enter")']);
    page.nodes = [search, node('5', 'textbox', 'Note', { inForm: true, formAction: 'https://evil.test/collect', formMethod: 'post' })];
    page.focusedRef = '5';
    page.acted = [];
    const ep = await start(controller(page, store, ['press("Enter")']));
    expect(page.acted).toEqual([]);
    expect(ep.steps[0]!.autonomy).toEqual({ ran: false, reason: 'always asks: its form sends to another origin (https://evil.test)' });
  });

  it('still runs Enter unasked in the very field approved, and the page layer checks that field at act time', async () => {
    const store = new InMemoryEpisodeStore();
    const page = new Page();
    page.nodes = [search];
    page.focusedRef = '1';
    await approveInTasks(page, store, ['press("Enter")']);
    page.acted = [];
    const ep = await start(controller(page, store, ['press("Enter")']));
    expect(ep.steps[0]!.chosen?.decision).toBe('auto');
    expect(ep.steps[0]!.autonomy?.reason).toBe('you approved it 2× on this page, same target');
    expect(page.acted).toEqual([{ action: { type: 'press', keys: 'Enter' }, expect: { role: 'searchbox', name: 'Search products', formAction: 'https://shop.test/search', formMethod: 'get', submits: false } }]);
  });
});

describe('the act-time re-read of a press without a target', () => {
  const search = node('1', 'searchbox', 'Search products', { inForm: true, formAction: 'https://shop.test/search', formMethod: 'get' });
  const reason = node('5', 'textbox', 'Reason', { inForm: true, formAction: 'https://shop.test/account/delete', formMethod: 'post' });
  const observed = (focusedRef: string | null): PageObservation => ({
    url: 'https://shop.test/', title: 'Shop', nodes: [search, reason], focusedRef, offscreen: { above: 0, below: 0 }, omissions: [],
    scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
  });
  const enter: Action = { type: 'press', keys: 'Enter' };

  it('refuses when the page moved focus to another element since it was approved', () => {
    expect(targetChanged(enter, 'press("Enter")', observed('1'), 'https://shop.test/', fingerprintOf(search))).toBeNull();
    expect(targetChanged(enter, 'press("Enter")', observed('5'), 'https://shop.test/', fingerprintOf(search))).toBe(
      'the focused element changed since it was shown: its role is textbox, not searchbox; its name is "Reason", not "Search products"; its form goes to https://shop.test/account/delete, not https://shop.test/search; its form method is post, not get',
    );
    expect(targetChanged(enter, 'press("Enter")', observed(null), 'https://shop.test/', fingerprintOf(search))).toBe('searchbox "Search products" does not have focus any more');
  });
});

describe('an "always ask" mark holds for the action however it is spelled', () => {
  const note = node('4', 'textbox', 'Note', { inForm: true, formAction: 'https://shop.test/notes', formMethod: 'post' });
  const del = node('6', 'button', 'Delete');
  const observation: PageObservation = {
    url: 'https://shop.test/cart', title: 'Cart', nodes: [note, del], focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [],
    scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
  };
  const gate = (text: string, semantic: string, approved: string, target: SnapshotNode, marks: AlwaysAskMark[]) => {
    const parsed = parseAction(text);
    if (!parsed.ok) throw parsed.error;
    const history: PersonDecision[] = [1, 2].map((at) => ({
      origin: 'https://shop.test', url: 'https://shop.test/cart', regUrl: '/cart', action: actionKey(approved), verdict: 'approved', target: fingerprintOf(target), episodeId: `e${at}`, at,
    }));
    return earnedAutonomy({ mode: 'unapproved-only', approvalsNeeded: 2, history, marks, observation, regUrl: '/cart', action: parsed.action, semantic, previousUrl: null, flaggedWord: null });
  };

  it('a key alias the model picks is the marked key: approvals of Enter count for Return, and so does the mark', () => {
    const marks = [{ origin: 'https://shop.test', action: 'press(<textbox "Note">, "Enter")' }];
    expect(gate('press([4], "Return")', 'press(<textbox "Note">, "Return")', 'press(<textbox "Note">, "Enter")', note, marks))
      .toEqual({ run: false, reason: 'always asks: you marked it "always ask"' });
  });

  it('a mark the person typed with other spacing, quotes or a trailing slash on the site still holds', () => {
    const marks = [{ origin: 'https://shop.test/', action: "click( <button 'Delete'> )" }];
    expect(gate('click([6])', 'click(<button "Delete">)', 'click(<button "Delete">)', del, marks))
      .toEqual({ run: false, reason: 'always asks: you marked it "always ask"' });
  });
});

describe('an imported archive never counts as the person\'s approvals', () => {
  const shown = (kind: Episode['kind'], id: string): Episode => ({
    id, origin: 'https://shop.test', task: 't', startUrl: 'https://shop.test/cart', tabId: null, status: 'success',
    steps: [{ ...recordedStepRecord({ index: 0, url: 'https://shop.test/cart', regUrl: '/cart', semantic: 'click(<button "Delete account">)', decision: 'demonstrated', result: { ok: true, navigated: false }, startedAt: 5, target: { role: 'button', name: 'Delete account', submits: false } }), candidates: [] }],
    answer: null, error: null, learners: [], attempt: 1, kind, startedAt: 0, endedAt: 1,
  });

  it('demonstration and benchmark episodes in an archive are imported history, not decisions taken here', () => {
    const imported = (['demonstration', 'bench', 'live'] as const).map((kind, i) => asImportedEpisode(shown(kind, `a${i}`), 10));
    expect(imported.map((e) => e.kind)).toEqual(['imported', 'imported', 'imported']);
    expect(personDecisionsOf(imported)).toEqual([]);
  });
});

describe('a rejection counts wherever the task started', () => {
  it('rejected on this site in a task that started on another site (this very task): it asks again, however often it was approved', async () => {
    const store = new InMemoryEpisodeStore();
    const page = new Page();
    page.nodes = [node('1', 'searchbox', 'Search products'), node('2', 'button', 'Search')];
    await approveInTasks(page, store, ['click([2])']);
    // A task that started on a search engine and came to the shop; the person rejects the click here.
    let settings: Settings = { ...earned, agent: { ...earned.agent, askModes: { 'https://shop.test': 'every-step' } } };
    const c = new AgentController({
      episodes: store, pageFor: () => page, policy: () => fixed(['click([2])', 'fill([1], "x")']), learners: () => [], evaluator: () => null,
      settings: () => settings, clock: { now: () => (t += 10) }, logger: { info: () => {}, warn: () => {}, error: () => {} }, newId: () => `ep-${++ids}`,
    });
    let ep = await start(c, 'https://search.test/');
    expect(ep.origin).toBe('https://search.test');
    ep = await c.decide(ep.id, { kind: 'reject', index: 0 });
    settings = earned;
    page.acted = [];
    ep = await c.decide(ep.id, { kind: 'approve' });
    expect(page.acted.map((a) => a.action.type)).toEqual(['fill']);
    expect(ep.status).toBe('awaiting_approval');
    expect(ep.steps.at(-1)!.autonomy).toEqual({ ran: false, reason: 'you rejected it here; it needs 2 approvals after that' });
  });
});
