/**
 * Memory carried to another instance of a task acts on that instance's item
 * (issue 35, "0 steps on a wrong item"; the Fossil carry miss of issue 33). A
 * tracker's report opens each ticket by its id link, and the task names the
 * ticket by its title, plain text in the id's row: what was taught on one
 * ticket's id must open the other ticket, never the taught one again.
 *
 * Mutant: without `carryRows` in JitRL's adjust, the second instance's first
 * proposal is the taught ticket's id link (support 1), and replay without the
 * row check opens it too.
 */
import { describe, expect, it } from 'vitest';
import { AgentController, type AgentDeps } from '../../src/core/agent/agent-controller.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import { InMemoryStepRowStore } from '../../src/core/stores/in-memory-step-rows.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import type { Action, ActionResult } from '../../src/core/page/action.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import { rebindRowIdentifier } from '../../src/core/page/row-identifier.ts';
import type { CandidatePolicy } from '../../src/core/policy/policy.ts';
import type { PageDriver } from '../../src/core/ports.ts';
import { seededRandom } from '../../src/core/random.ts';
import { checkPrecondition } from '../../src/core/replay/replay-step.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import { JitrlLearner } from '../../src/learners/jitrl/core/jitrl-learner.ts';
import { jitrlDefinition } from '../../src/learners/jitrl/definition.ts';
import { transition, valueOf } from '../../src/learners/jitrl/test/jitrl-helpers.ts';
import { carryRows } from '../../src/learners/jitrl/core/carried-rows.ts';

const node = (ref: string, role: string, name: string, extra: Partial<SnapshotNode> = {}): SnapshotNode => ({
  ref, kind: 'interactive', role, name, states: {}, depth: 0, inViewport: true, ...extra,
});
const TICKETS = [
  { id: '0ba033313b', title: 'Crash when saving an empty note' },
  { id: '5e21c0d7aa', title: 'Toolbar icons are blurry' },
  { id: '91f4b2e6c3', title: 'Search ignores accented letters' },
  { id: 'c47d10e9f2', title: 'Export notes to PDF' },
];
const rowText = (t: { id: string; title: string }) => `${t.id} Code_Defect Open ${t.title}`;
const observation = (at: string): PageObservation => ({
  url: `https://tracker.test${at}`, title: 'Tracker', focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [],
  scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
  nodes: at === '/'
    ? [node('1', 'link', 'Help'), ...TICKETS.map((t, i) => node(String(10 + i), 'link', t.id, { rowText: rowText(t) }))]
    : [node('20', 'button', 'Close ticket'), node('21', 'link', 'Back to the report')],
});

/** The report ('/') and one page per ticket ('/ticket/<id>'), with what was closed. */
class TrackerPage implements PageDriver {
  at = '/';
  closed: string[] = [];
  async observe(): Promise<PageObservation> {
    return observation(this.at);
  }
  async act(action: Action): Promise<ActionResult> {
    if (action.type !== 'click' || action.target.kind !== 'ref') return { ok: true, navigated: false };
    const t = TICKETS[Number(action.target.ref) - 10];
    if (this.at === '/' && t) {
      this.at = `/ticket/${t.id}`;
      return { ok: true, navigated: true };
    }
    if (action.target.ref === '20') this.closed.push(this.at.slice('/ticket/'.length));
    return { ok: true, navigated: false };
  }
}

/** Help first, then the ids alike, on the report; on a ticket, Back before Close. */
const policy: CandidatePolicy = {
  id: 'fixed',
  async propose(input) {
    const z: Record<string, number> = { Help: 2, 'Back to the report': 2, 'Close ticket': 1, ...Object.fromEntries(TICKETS.map((t) => [t.id, 0.5])) };
    const candidates = input.observation.nodes.filter((n) => n.ref !== null).map((n) => {
      const parsed = parseAction(`click([${n.ref}])`);
      if (!parsed.ok) throw parsed.error;
      return { action: parsed.action, logit: z[n.name] ?? 0 };
    });
    return { candidates, logitSource: 'offline', usage: { calls: 0, promptTokens: 0, completionTokens: 0 }, notes: [] };
  },
};

function tracker() {
  const memory = new InMemoryStepRowStore();
  let t = 1000;
  const clock = { now: () => (t += 10) };
  const jitrl = new JitrlLearner({ store: memory, settings: () => jitrlDefinition.settings.read(DEFAULT_SETTINGS), random: seededRandom(3), clock });
  let page = new TrackerPage();
  let id = 0;
  const deps: AgentDeps = {
    episodes: new InMemoryEpisodeStore(), pageFor: () => page, policy: () => policy, learners: () => [jitrl], evaluator: () => null,
    settings: () => DEFAULT_SETTINGS, clock, logger: { info: () => {}, warn: () => {}, error: () => {} }, newId: () => `ep-${++id}`,
  };
  const controller = new AgentController(deps);
  return {
    controller,
    page: () => page,
    start: (task: string) => {
      page = new TrackerPage();
      return controller.start({ task, startUrl: 'https://tracker.test/', tabId: null, kind: 'bench' });
    },
  };
}
const pick = (ep: { steps: readonly { candidates: readonly { semantic: string }[] }[] }, semantic: string) =>
  ({ kind: 'pick' as const, index: ep.steps.at(-1)!.candidates.findIndex((c) => c.semantic === semantic) });

describe('a step on a row picked by the task is carried to the row the next task names', () => {
  const values = new Map([['crash when saving an empty note', 'Toolbar icons are blurry']]);

  it('moves to the one id link whose row shows the new title and not the old one', () => {
    expect(rebindRowIdentifier('click(<link "0ba033313b">)', observation('/'), values)).toEqual({ kind: 'moved', semantic: 'click(<link "5e21c0d7aa">)' });
  });

  it('is the other instance\'s, and counts for nothing, when this instance\'s row is not one element', () => {
    const two = observation('/');
    two.nodes.push(node('30', 'link', 'ffff000011', { rowText: 'ffff000011 Cosmetic Open Toolbar icons are blurry (again)' }));
    expect(rebindRowIdentifier('click(<link "0ba033313b">)', two, values)).toEqual({
      kind: 'other-instance', reason: 'it opens another item\'s row; 2 link in a row showing "Toolbar icons are blurry"',
    });
    const none = observation('/');
    none.nodes.splice(2, 1);
    expect(rebindRowIdentifier('click(<link "0ba033313b">)', none, values)).toMatchObject({ kind: 'other-instance' });
  });

  it('leaves alone a step that names the value itself, or acts outside such a row', () => {
    expect(rebindRowIdentifier('click(<link "Help">)', observation('/'), values)).toEqual({ kind: 'same' });
    const named = observation('/');
    named.nodes.push(node('40', 'link', 'Crash when saving an empty note', { rowText: 'Crash when saving an empty note Open' }));
    expect(rebindRowIdentifier('click(<link "Crash when saving an empty note">)', named, values)).toEqual({ kind: 'same' });
  });

  it('JitRL: taught on one ticket, the next ticket\'s id is proposed first, the taught id gets no support', async () => {
    const lib = tracker();
    let ep = await lib.start('Change the ticket "Crash when saving an empty note" to Closed, please.');
    ep = await lib.controller.decide(ep.id, pick(ep, 'click(<link "0ba033313b">)'));
    ep = await lib.controller.decide(ep.id, pick(ep, 'click(<button "Close ticket">)'));
    expect(lib.page().closed).toEqual(['0ba033313b']);
    await lib.controller.finish(ep.id, 'success');

    const next = await lib.start('Change the ticket "Toolbar icons are blurry" to Closed, please.');
    const first = next.steps[0]!.candidates;

    expect(first[0]!.semantic).toBe('click(<link "5e21c0d7aa">)');
    expect(valueOf(first[0]!).support).toBe(1);
    expect(valueOf(first.find((c) => c.semantic === 'click(<link "0ba033313b">)')!).support).toBe(0);
    expect(next.steps[0]!.learningNotes.join(' | ')).toContain('moved to this task\'s row: click(<link "5e21c0d7aa">)');
  });

  it('JitRL: another template\'s task does not take a ticket\'s id as evidence when its row is that task\'s item', () => {
    // Two templates, as in the Fossil carry run where a comment went to the status task's ticket.
    const statusTask = 'Change the ticket "Toolbar icons are blurry" to Review, please.';
    const commentTask = 'Write "Works for me." under the ticket "Export notes to PDF".';
    const remembered = { transition: transition({ id: 'e1:3', task: statusTask, action: 'click(<link "5e21c0d7aa">)', regUrl: '/' }), similarity: 0.9, ret: 1 };
    const out = carryRows([remembered], commentTask, observation('/'));
    expect([...out.otherInstance]).toEqual(['e1:3']);
    expect(out.notes).toEqual(['remembered click(<link "5e21c0d7aa">) not used: its row is another task\'s item']);
    // A task that names that very ticket keeps it.
    expect(carryRows([remembered], 'Write "Seen here too." under the ticket "Toolbar icons are blurry".', observation('/')).otherInstance.size).toBe(0);
  });

  it('replay: a plan step on the taught ticket\'s id stops where the row shows none of the task\'s values', () => {
    const step = { regUrl: '/', action: 'click(<link "0ba033313b">)' };
    expect(checkPrecondition(step, observation('/'), [], ['Toolbar icons are blurry'])).toEqual({
      ok: false, reason: '<link "0ba033313b"> opens a row that shows none of the task\'s values: another item',
    });
    // The same plan on its own ticket runs.
    expect(checkPrecondition(step, observation('/'), [], ['Crash when saving an empty note'])).toEqual({ ok: true, action: { type: 'click', target: { kind: 'ref', ref: '10' } } });
  });
});
