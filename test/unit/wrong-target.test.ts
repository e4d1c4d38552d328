/**
 * Commits on the wrong target (issue 34, part 6): a state-changing step on a
 * page that does not show the item the task names asks, with the reason, in
 * every ask mode — here "Ask every step" and earned autonomy, where two
 * approvals of "Delete page" would otherwise run it unasked.
 */
import { describe, expect, it } from 'vitest';
import { AgentController, type AgentDeps } from '../../src/core/agent/agent-controller.ts';
import { commitsState, numberedInTask, quotedInTask, wrongTargetReason } from '../../src/core/agent/wrong-target.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import type { Action, ActionResult } from '../../src/core/page/action.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import type { CandidatePolicy } from '../../src/core/policy/policy.ts';
import type { PageDriver } from '../../src/core/ports.ts';
import { matchPlan } from '../../src/core/replay/match-procedure.ts';
import type { Procedure } from '../../src/core/replay/procedure.ts';
import { DEFAULT_SETTINGS, type Settings } from '../../src/core/settings.ts';

const node = (ref: string | null, role: string, name: string, extra: Partial<SnapshotNode> = {}): SnapshotNode => ({
  ref, kind: ref === null ? 'heading' : 'interactive', role, name, states: {}, depth: 0, inViewport: true, ...extra,
});

const deleteForm = (item: string): SnapshotNode[] => [
  node(null, 'heading', `Delete ${item}`, { level: 1 }),
  node('1', 'textbox', 'Reason', { inForm: true }),
  node('2', 'button', 'Delete page', { inForm: true, submits: true, formMethod: 'post', formAction: 'https://wiki.test/delete' }),
];

const observation = (title: string, nodes: SnapshotNode[]): PageObservation => ({
  url: 'https://wiki.test/delete?page=Main_Page', title, nodes, focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [],
  scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
});

const act = (text: string): Action => {
  const parsed = parseAction(text);
  if (!parsed.ok) throw parsed.error;
  return parsed.action;
};

describe('wrongTargetReason', () => {
  const wrong = observation('Delete Main Page — Wiki', deleteForm('Main Page'));

  it('asks before a posting submit on a page that does not show the named item, and says why', () => {
    expect(wrongTargetReason('Delete the page "Golden Gate Bridge"', act('click([2])'), wrong)).toBe(
      'the task names "Golden Gate Bridge", and this page does not show it (title "Delete Main Page — Wiki"; headings "Delete Main Page"): "Delete page" posts a form, and may act on the wrong item',
    );
  });

  it('lets it be when the title or a heading shows the item (spaces and underscores alike, any case)', () => {
    expect(wrongTargetReason('Delete the page "Main Page"', act('click([2])'), wrong)).toBeNull();
    expect(wrongTargetReason('Delete the page "main page"', act('click([2])'), observation('Main_Page', []))).toBeNull();
  });

  it('looks only at steps that change state, and only when the task names an item', () => {
    expect(wrongTargetReason('Delete the page "Golden Gate Bridge"', act('fill([1], "duplicate")'), wrong)).toBeNull();
    expect(wrongTargetReason('Delete the page Golden Gate Bridge', act('click([2])'), wrong)).toBeNull();
  });

  it('does not take a value the task types or chooses for the item', () => {
    const typed = observation('Delete Main Page', [...deleteForm('Main Page').slice(0, 1), node('1', 'textbox', 'Reason', { value: 'vandalism' }), deleteForm('Main Page')[2]!]);
    expect(wrongTargetReason('Delete the page "Main Page" with the reason "vandalism"', act('click([2])'), typed)).toBeNull();
    // A value typed earlier in the episode (the field may since have gone) is a value too.
    expect(wrongTargetReason('Post "hello"', act('click([2])'), observation('Inbox', deleteForm('Inbox').slice(1)), ['hello'])).toBeNull();
    // A text to write (more than six words) is not an item's name, even before it is typed.
    expect(wrongTargetReason('Create the page "Release" with the text "Tag the trunk, build the packages and update the news."', act('click([2])'), observation('Release', deleteForm('x').slice(1)))).toBeNull();
    // A ticked option the task names is a value.
    const plan = observation('Sign up', [node('3', 'radio', 'Pro', { states: { checked: true } }), node('4', 'button', 'Sign up', { submits: true })]);
    expect(wrongTargetReason('Sign up on the "Pro" plan', act('click([4])'), plan)).toBeNull();
  });

  it('lets a search by GET run before the item\'s page, where a quoted new value is not shown yet', () => {
    const customers = observation('Customers — Backoffice', [
      node(null, 'heading', 'Customers', { level: 1 }),
      node('1', 'searchbox', 'Search customers', { inForm: true, formMethod: 'get', value: 'Omar Haddad' }),
      node('2', 'button', 'Search', { inForm: true, submits: true, formMethod: 'get', formAction: 'https://admin.test/customers' }),
    ]);
    const task = 'Set the e-mail of Omar Haddad to "omar.haddad@example.org".';
    expect(wrongTargetReason(task, act('click([2])'), customers, ['Omar Haddad'])).toBeNull();
    // The same form sent by POST is a commit on a page that does not show the quoted value: it asks.
    const posted = observation('Customers — Backoffice', customers.nodes.map((n) => (n.formMethod ? { ...n, formMethod: 'post' } : n)));
    expect(wrongTargetReason(task, act('click([2])'), posted, ['Omar Haddad'])).toBe(
      'the task names "omar.haddad@example.org", and this page does not show it (title "Customers — Backoffice"; headings "Customers"): "Search" posts a form, and may act on the wrong item',
    );
  });

  it('reads a "#3" outside the quotes as the item, shown only as written, even where it was typed', () => {
    expect(numberedInTask('Close #3, then #3 again; ignore "see #4", &#39;x&#39; and #tag')).toEqual(['#3']);
    const close = (title: string, heading: string) => observation(title, [node(null, 'heading', heading, { level: 1 }), node('2', 'button', 'Close issue', { inForm: true, submits: true, formMethod: 'post' })]);
    expect(wrongTargetReason('Close #3', act('click([2])'), close('Login fails on Safari · Issue #3', 'Login fails on Safari'), ['#3'])).toBeNull();
    expect(wrongTargetReason('Close #3', act('click([2])'), close('Crash when saving · Issue #30', 'Crash when saving'), ['#3'])).toBe(
      'the task names "#3", and this page does not show it (title "Crash when saving · Issue #30"; headings "Crash when saving"): "Close issue" posts a form, and may act on the wrong item',
    );
    // "Issue 3" may be the third of a list: not the reference as written, so it asks.
    expect(wrongTargetReason('Close #3', act('click([2])'), close('Issues', 'Issue 3'))).toMatch(/^the task names "#3", and this page does not show it/);
  });

  it('names why a step changes state', () => {
    const obs = observation('x', [
      node('5', 'button', 'Remove', {}), node('6', 'button', 'Next', {}), node('7', 'textbox', 'q', { inForm: true }),
      node('8', 'checkbox', 'Auto', { submits: true }), node('9', 'button', 'Go', { submits: true, formMethod: 'get' }),
    ]);
    expect(commitsState(act('click([5])'), obs)).toBe('"Remove" says "remove"');
    expect(commitsState(act('click([6])'), obs)).toBeNull();
    expect(commitsState(act('press([7], "Enter")'), obs)).toBe('Enter submits its form');
    expect(commitsState(act('check([8])'), obs)).toBe('changing it submits its form');
    // A form sent by GET asks for a page: its submit, its Enter and its change are no commit (issue 30, the
    // admin.customer-email ask): but by its name.
    expect(commitsState(act('click([9])'), obs)).toBeNull();
    const get = observation('x', [
      node('10', 'searchbox', 'Search customers', { inForm: true, formMethod: 'get' }), node('11', 'checkbox', 'Shipped', { submits: true, formMethod: 'get' }),
      node('12', 'button', 'Delete all', { submits: true, formMethod: 'get' }), node('13', 'button', 'Go', { submits: true, formMethod: 'dialog' }),
    ]);
    expect(commitsState(act('press([10], "Enter")'), get)).toBeNull();
    expect(commitsState(act('check([11])'), get)).toBeNull();
    expect(commitsState(act('click([12])'), get)).toBe('"Delete all" says "delete"');
    expect(commitsState(act('click([13])'), get)).toBe('"Go" submits a form');
    expect(quotedInTask('Move “Golden Gate” to \'Bridges\' and "golden gate"')).toEqual(['Golden Gate', 'Bridges']);
  });
});

/** A wiki's delete form for one page, whatever the task says. */
class DeletePage implements PageDriver {
  acted: Action[] = [];
  async observe(): Promise<PageObservation> {
    return observation('Delete Main Page — Wiki', deleteForm('Main Page'));
  }
  async act(action: Action): Promise<ActionResult> {
    this.acted.push(action);
    return { ok: true, navigated: false };
  }
}

const policy: CandidatePolicy = {
  id: 'fixed',
  async propose() {
    return { candidates: [{ action: act('click([2])'), logit: 2 }], logitSource: 'offline', usage: { calls: 0, promptTokens: 0, completionTokens: 0 }, notes: [] };
  },
};

function controllerOn(page: DeletePage, store: InMemoryEpisodeStore, settings: Settings, ids: { n: number }) {
  let t = 1000 + ids.n * 1000;
  const deps: AgentDeps = {
    episodes: store, pageFor: () => page, policy: () => policy, learners: () => [], evaluator: () => null, settings: () => settings,
    clock: { now: () => (t += 10) }, logger: { info: () => {}, warn: () => {}, error: () => {} }, newId: () => `ep-${++ids.n}`,
  };
  return new AgentController(deps);
}

describe('the check in the controller', () => {
  const earned: Settings = { ...DEFAULT_SETTINGS, agent: { ...DEFAULT_SETTINGS.agent, selection: 'argmax', askModes: { 'https://wiki.test': 'unapproved-only' } } };
  const start = (c: AgentController, task: string) => c.start({ task, startUrl: 'https://wiki.test/delete?page=Main_Page', tabId: 7 });

  it('a delete approved in two tasks runs unasked on its own item, and asks with the reason on another', async () => {
    const store = new InMemoryEpisodeStore();
    const page = new DeletePage();
    const ids = { n: 0 };
    for (let i = 0; i < 2; i++) {
      const c = controllerOn(page, store, earned, ids);
      const ep = await start(c, `Delete the page "Main Page" (${i + 1})`);
      expect(ep.steps[0]!.autonomy?.ran).toBe(false);
      await c.decide(ep.id, { kind: 'approve' });
      await c.stop(ep.id);
    }
    expect(page.acted).toHaveLength(2);
    const own = await start(controllerOn(page, store, earned, ids), 'Delete the page "Main Page"');
    expect(own.steps[0]!.autonomy).toEqual({ ran: true, reason: 'you approved it in 2 tasks on this page, same target' });
    expect(page.acted).toHaveLength(3);

    const other = await start(controllerOn(page, store, earned, ids), 'Delete the page "Golden Gate Bridge"');
    expect(page.acted).toHaveLength(3);
    expect(other.status).toBe('awaiting_approval');
    expect(other.steps[0]!.autonomy).toEqual({
      ran: false,
      reason: 'the task names "Golden Gate Bridge", and this page does not show it (title "Delete Main Page — Wiki"; headings "Delete Main Page"): "Delete page" posts a form, and may act on the wrong item',
    });
  });

  it('under "Ask every step" the step says the same reason', async () => {
    const ep = await start(controllerOn(new DeletePage(), new InMemoryEpisodeStore(), DEFAULT_SETTINGS, { n: 0 }), 'Delete the page "Golden Gate Bridge"');
    expect(ep.steps[0]!.autonomy?.reason).toMatch(/^the task names "Golden Gate Bridge", and this page does not show it/);
  });
});

/**
 * A wiki whose pages list "Recent changes" in a sidebar. The link "Golden Gate
 * Bridge" there is stale: that page was merged into the Main Page, and the link
 * leads there. Pages: /wiki/<slug>, its delete form /wiki/<slug>/delete.
 */
class Wiki implements PageDriver {
  at = 'Main_Page';
  deleting = false;
  deleted: string[] = [];
  async observe(): Promise<PageObservation> {
    const title = this.at.replace(/_/g, ' ');
    const sidebar = [node(null, 'heading', 'Recent changes', { level: 2 }), node('1', 'link', 'Golden Gate Bridge', { href: 'https://wiki.test/wiki/Main_Page' }), node('2', 'link', 'Sandbox', { href: 'https://wiki.test/wiki/Sandbox' })];
    const body = this.deleting
      ? [node(null, 'heading', `Delete ${title}`, { level: 1 }), node('4', 'button', 'Delete page', { inForm: true, submits: true, formMethod: 'post', formAction: `https://wiki.test/wiki/${this.at}/delete` })]
      : [node(null, 'heading', title, { level: 1 }), node('3', 'link', 'Delete', { href: `https://wiki.test/wiki/${this.at}/delete` })];
    return {
      url: `https://wiki.test/wiki/${this.at}${this.deleting ? '/delete' : ''}`, title: `${this.deleting ? 'Delete ' : ''}${title} — Wiki`, nodes: [...body, ...sidebar],
      focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [], scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
    };
  }
  async act(action: Action): Promise<ActionResult> {
    const ref = 'target' in action && action.target?.kind === 'ref' ? action.target.ref : null;
    // A merged page's address redirects to the page it was merged into.
    if (action.type === 'goto') [this.at, this.deleting] = [action.url.includes('Sandbox') ? 'Sandbox' : 'Main_Page', false];
    else if (ref === '1') [this.at, this.deleting] = ['Main_Page', false];
    else if (ref === '2') [this.at, this.deleting] = ['Sandbox', false];
    else if (ref === '3') this.deleting = true;
    else if (ref === '4') this.deleted.push(this.at);
    return { ok: true, navigated: ref !== '4' };
  }
}

/** Learned deleting "Sandbox" from the Main Page: its link in Recent changes, Delete, "Delete page". */
const deletePlan: Procedure = {
  id: 's-1', origin: 'https://wiki.test', template: 'Delete the page {page}', variables: ['page'],
  steps: [
    { regUrl: '/wiki/{slug}', action: 'click(<link "{page}">)' },
    { regUrl: '/wiki/{slug}', action: 'click(<link "Delete">)' },
    { regUrl: '/wiki/{slug}/delete', action: 'click(<button "Delete page">)' },
  ],
  sources: [{ episodeId: 'e1', source: 'live', taught: false, endedAt: 1 }], endsWithAnswer: false,
};

/** The same, learned going to the page by its address (a merged page's address redirects to the Main Page). */
const deleteByAddress: Procedure = {
  ...deletePlan,
  id: 's-2',
  steps: [{ regUrl: '/wiki/{slug}', action: 'goto("https://wiki.test/wiki/{page}")' }, ...deletePlan.steps.slice(1)],
};

describe('the check on a replayed plan step', () => {
  async function replayTo(task: string, plan = deletePlan) {
    const wiki = new Wiki();
    let t = 1000;
    const deps: AgentDeps = {
      episodes: new InMemoryEpisodeStore(), pageFor: () => wiki, learners: () => [], evaluator: () => null, settings: () => DEFAULT_SETTINGS,
      policy: () => ({ id: 'unused', propose: async () => { throw new Error('the policy was asked'); } }),
      clock: { now: () => (t += 10) }, logger: { info: () => {}, warn: () => {}, error: () => {} }, newId: () => 'ep-1',
      replay: { find: async (input) => matchPlan(input.task, [plan], new Map()), record: async () => {}, approvePlans: true },
    };
    const c = new AgentController(deps);
    let ep = await c.start({ task, startUrl: 'https://wiki.test/wiki/Main_Page', tabId: 7 });
    // The person approves the plan's steps up to "Delete page" (a plan learned before effects asks at each that acts on an element).
    while (ep.status === 'awaiting_approval' && ep.steps.at(-1)?.replayStep?.step !== 2) ep = await c.decide(ep.id, { kind: 'approve' });
    return { ep, wiki };
  }

  it('a stale link led elsewhere: the plan stops before "Delete", since the sidebar\'s link is not the page\'s item', async () => {
    const wiki = new Wiki();
    let t = 1000;
    const c = new AgentController({
      episodes: new InMemoryEpisodeStore(), pageFor: () => wiki, learners: () => [], evaluator: () => null, settings: () => DEFAULT_SETTINGS,
      policy: () => ({ id: 'unused', propose: async () => { throw new Error('the policy was asked'); } }),
      clock: { now: () => (t += 10) }, logger: { info: () => {}, warn: () => {}, error: () => {} }, newId: () => 'ep-1',
      replay: { find: async (input) => matchPlan(input.task, [deletePlan], new Map()), record: async () => {}, approvePlans: true },
    });
    let ep = await c.start({ task: 'Delete the page "Golden Gate Bridge"', startUrl: 'https://wiki.test/wiki/Main_Page', tabId: 7 });
    ep = await c.decide(ep.id, { kind: 'approve' });
    // Before issue 30's substitute check, the item named anywhere on the page (the sidebar's link) let the plan through to "Delete page".
    expect(ep.replay).toMatchObject({ status: 'fell_back', fallback: { step: 1, reason: 'the page does not show "Golden Gate Bridge", the item the plan acts on' } });
    expect(wiki.deleted).toEqual([]);
  });

  it('reaching "Delete page" on a page that does not show the item (its address redirected elsewhere), asks with the reason', async () => {
    const { ep, wiki } = await replayTo('Delete the page "Golden Gate Bridge"', deleteByAddress);
    expect(ep.steps.map((s) => [s.replayStep?.step, s.candidates[0]!.semantic])).toEqual([
      [0, 'goto("https://wiki.test/wiki/Golden Gate Bridge")'], [1, 'click(<link "Delete">)'], [2, 'click(<button "Delete page">)'],
    ]);
    expect(ep.status).toBe('awaiting_approval');
    // No step found its element by the item's name, so the plan's own content check has nothing to look for.
    expect(ep.replay?.status).toBe('approved');
    expect(ep.steps[2]!.autonomy).toEqual({
      ran: false,
      reason: 'the task names "Golden Gate Bridge", and this page does not show it (title "Delete Main Page — Wiki"; headings "Delete Main Page", "Recent changes"): "Delete page" posts a form, and may act on the wrong item',
    });
    expect(wiki.deleted).toEqual([]);
  });

  it('on the item\'s own delete form, the step asks for the plan\'s own reason, not this one', async () => {
    const { ep } = await replayTo('Delete the page "Sandbox"');
    expect(ep.steps[2]!.candidates[0]!.semantic).toBe('click(<button "Delete page">)');
    expect(ep.steps[2]!.autonomy?.reason).toMatch(/^its element does not do what the plan's step did/);
  });
});
