/**
 * A stale target found again (issue 34): the page replaced the element the
 * approved action names; the one element with exactly the same role and
 * name is acted on and the result says so. Several or none: nothing runs,
 * the result is element_gone and the policy proposes again — never a pause.
 */
import { describe, expect, it } from 'vitest';
import { AgentController, type AgentDeps } from '../../src/core/agent/agent-controller.ts';
import { checkBeforeActing, observeOptionsFor, refindTarget } from '../../src/core/agent/stale-target.ts';
import { truncateObservation } from '../../src/core/page/render-observation.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import type { Action, ActionResult } from '../../src/core/page/action.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import type { CandidatePolicy } from '../../src/core/policy/policy.ts';
import type { PageDriver } from '../../src/core/ports.ts';
import { DEFAULT_SETTINGS, type Settings } from '../../src/core/settings.ts';

const SETTINGS: Settings = { ...DEFAULT_SETTINGS, agent: { ...DEFAULT_SETTINGS.agent, selection: 'argmax' } };

const node = (ref: string, role: string, name: string): SnapshotNode => ({ ref, kind: 'interactive', role, name, states: {}, depth: 0, inViewport: true });

const observation = (nodes: SnapshotNode[], url = 'https://wiki.test/prefs'): PageObservation => ({
  url, title: 'Preferences', nodes, focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [], scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
});

/** The server's form first; every later read shows what the page's script put there instead. */
class HydratingPage implements PageDriver {
  reads = 0;
  acted: Action[] = [];
  constructor(readonly later: SnapshotNode[], readonly url = 'https://wiki.test/prefs') {}
  async observe(): Promise<PageObservation> {
    return this.reads++ === 0 ? observation([node('7', 'textbox', 'Display name'), node('8', 'button', 'Save')]) : observation(this.later, this.url);
  }
  async act(action: Action): Promise<ActionResult> {
    this.acted.push(action);
    return { ok: true, navigated: false };
  }
}

const policy: CandidatePolicy = {
  id: 'fixed',
  async propose(input) {
    const field = input.observation.nodes.find((n) => n.role === 'textbox');
    const parsed = parseAction(`fill([${field?.ref ?? '7'}], "Ada")`);
    if (!parsed.ok) throw parsed.error;
    return { candidates: [{ action: parsed.action, logit: 1 }], logitSource: 'offline', usage: { calls: 0, promptTokens: 0, completionTokens: 0 }, notes: [] };
  },
};

function controllerOn(page: PageDriver): AgentController {
  let id = 0;
  let t = 1000;
  const deps: AgentDeps = {
    episodes: new InMemoryEpisodeStore(), pageFor: () => page, policy: () => policy, learners: () => [], evaluator: () => null,
    settings: () => SETTINGS, clock: { now: () => (t += 10) }, logger: { info: () => {}, warn: () => {}, error: () => {} }, newId: () => `ep-${++id}`,
  };
  return new AgentController(deps);
}

async function approveFirstStep(page: HydratingPage) {
  const controller = controllerOn(page);
  const ep = await controller.start({ task: 'Set the display name to Ada', startUrl: 'https://wiki.test/prefs', tabId: 1 });
  expect(ep.steps[0]!.candidates[0]!.semantic).toBe('fill(<textbox "Display name">, "Ada")');
  return controller.decide(ep.id, { kind: 'approve' });
}

describe('a stale target', () => {
  it('is found again by its exact role and name when one element has them, acted on, and the result says so', async () => {
    const page = new HydratingPage([node('11', 'textbox', 'Display name'), node('12', 'button', 'Save')]);
    const ep = await approveFirstStep(page);
    expect(page.acted).toEqual([{ type: 'fill', target: { kind: 'ref', ref: '11' }, text: 'Ada' }]);
    expect(ep.steps[0]!.result).toEqual({ ok: true, navigated: false, note: '[7] was replaced on the page; acted on [11], the only textbox "Display name" there now' });
    expect(ep.status).toBe('awaiting_approval');
  });

  it('matched by several elements is not guessed at: nothing runs, element_gone, and the policy proposes again (no pause)', async () => {
    const page = new HydratingPage([node('11', 'textbox', 'Display name'), node('13', 'textbox', 'display  NAME'), node('12', 'button', 'Save')]);
    const ep = await approveFirstStep(page);
    expect(page.acted).toEqual([]);
    expect(ep.steps[0]!.result).toEqual({ ok: false, code: 'element_gone', message: '[7] is not on the page any more and was not found again: 2 elements are textbox "Display name" now; not guessing which' });
    expect(ep.status).toBe('awaiting_approval');
    expect(ep.steps).toHaveLength(2);
  });

  it('is not replaced by a near match ("Display name (public)"), and on another origin it is refused as before', async () => {
    const near = await approveFirstStep(new HydratingPage([node('11', 'textbox', 'Display name (public)')]));
    expect(near.steps[0]!.result).toMatchObject({ ok: false, code: 'element_gone', message: expect.stringMatching(/no textbox "Display name" is on the page now$/) });
    const moved = await approveFirstStep(new HydratingPage([node('11', 'textbox', 'Display name')], 'https://evil.test/prefs'));
    expect(moved.status).toBe('paused');
    expect(moved.steps[0]!.result).toMatchObject({ ok: false, code: 'not_run' });
  });

  it('refindTarget keeps the typed text and needs the shown form to name an element', () => {
    const fill: Action = { type: 'fill', target: { kind: 'ref', ref: '7' }, text: 'secret-ish' };
    const now = observation([node('21', 'textbox', 'Display name')]);
    expect(refindTarget(fill, 'fill(<textbox "Display name">, "{password}")', now)).toMatchObject({ ok: true, action: { ...fill, target: { kind: 'ref', ref: '21' } } });
    expect(refindTarget(fill, 'fill([7], "x")', now)).toEqual({ ok: false, reason: 'the action as shown names no element to look for' });
  });
});

describe('a target that goes while the page settles', () => {
  it('is found again once after the page layer answers element_gone', async () => {
    const page = new HydratingPage([node('7', 'textbox', 'Display name')]);
    let calls = 0;
    page.act = async function (action) {
      this.acted.push(action);
      // The first act finds [7] gone (the page replaced it during the wait); the next read shows [31].
      if (calls++ === 0) {
        this.later.splice(0, 1, node('31', 'textbox', 'Display name'));
        return { ok: false, code: 'element_gone', message: '[7] is no longer on the page; observe again' };
      }
      return { ok: true, navigated: false };
    };
    const ep = await approveFirstStep(page);
    expect(page.acted.map((a) => ('target' in a && a.target?.kind === 'ref' ? a.target.ref : null))).toEqual(['7', '31']);
    expect(ep.steps[0]!.result).toMatchObject({ ok: true, note: '[7] was replaced on the page; acted on [31], the only textbox "Display name" there now' });
  });
});

describe('the re-read before acting, on a long list cut by the snapshot budget', () => {
  // Four rows of "Approve"; the person chose row 4 in a snapshot that showed it (taken near it).
  const people = ['Ada Byron', 'Grace Kim', 'Lucia Romano', 'Omar Haddad'];
  const full = observation(people.map((p, i) => ({ ...node(String(i + 1), 'button', 'Approve'), context: [{ role: 'row', name: p }] })), 'https://blog.test/comments');
  /** A page that applies the budget as the page layer does: to what `observe` is asked for. */
  const cutting: PageDriver = {
    observe: async (options) => truncateObservation(full, { maxChars: options.maxChars ?? 12_000, lastActedRef: options.lastActedRef ?? null, ...(options.task !== undefined ? { task: options.task } : {}) }),
    act: async () => ({ ok: true, navigated: false }),
  };
  const action: Action = { type: 'click', target: { kind: 'ref', ref: '4' } };
  const shown = { semantic: 'click(<button "Approve" in row "Omar Haddad">)', shownOn: 'https://blog.test/comments', expected: null };

  it('keeps the element acted on, so a row far down the list is still there', async () => {
    // 207 characters in all; 200 hold the header, the note (92) and one of the four 39–42-character lines.
    const options = observeOptionsFor(action, 200, 'Approve the oldest comment');
    expect(options).toEqual({ maxChars: 200, lastActedRef: '4', task: 'Approve the oldest comment' });
    expect((await cutting.observe(options)).nodes.map((n) => n.ref)).toEqual(['4']);
    expect(await checkBeforeActing(cutting, action, shown, options)).toMatchObject({ kind: 'run', action, note: null });
  });

  it('read from the top of the view instead (as before), only row 1 is left and the approved click is element_gone', async () => {
    expect((await cutting.observe({ maxChars: 200, lastActedRef: null })).nodes.map((n) => n.ref)).toEqual(['1']);
    const before = await checkBeforeActing(cutting, action, shown, { maxChars: 200, lastActedRef: null });
    expect(before).toEqual({ kind: 'gone', result: { ok: false, code: 'element_gone', message: '[4] is not on the page any more and was not found again: button "Approve" could not be resolved on the page now' } });
  });
});
