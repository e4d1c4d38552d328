/**
 * A line break typed into a field of lines (issue 34): the snapshot marks a
 * textarea `multiline`, and there a line break is text, not a submit. So a
 * plan step that appends a line to a page's text runs unasked as approved,
 * like any other fill of an approved plan — before, the gate read the line
 * break as an Enter and asked every time. In a one-line field it still asks.
 */
import { describe, expect, it } from 'vitest';
import { AgentController, type AgentDeps } from '../../src/core/agent/agent-controller.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import type { Action, ActionResult } from '../../src/core/page/action.ts';
import type { PageObservation } from '../../src/core/page/observation.ts';
import { renderNodeLine } from '../../src/core/page/render-observation.ts';
import type { CandidatePolicy } from '../../src/core/policy/policy.ts';
import type { PageDriver } from '../../src/core/ports.ts';
import { regularizeUrl } from '../../src/core/page/regularize-url.ts';
import { matchPlan } from '../../src/core/replay/match-procedure.ts';
import type { Procedure } from '../../src/core/replay/procedure.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';

/** A wiki's edit form: the page's text in "Content" (a textarea when `multiline`). */
class EditPage implements PageDriver {
  acted: Action[] = [];
  constructor(private readonly multiline: boolean) {}
  async observe(): Promise<PageObservation> {
    return {
      url: 'https://wiki.test/edit?page=Golden_Gate_Bridge', title: 'Editing Golden Gate Bridge', focusedRef: null,
      nodes: [{ ref: '1', kind: 'interactive', role: 'textbox', name: 'Content', value: 'Intro.\n== History ==', states: {}, depth: 0, inViewport: true, inForm: true, ...(this.multiline ? { multiline: true as const } : {}) }],
      offscreen: { above: 0, below: 0 }, omissions: [], scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
    };
  }
  async act(action: Action): Promise<ActionResult> {
    this.acted.push(action);
    return { ok: true, navigated: false };
  }
}

/** The policy is never asked: the plan proposes every step. */
const policy: CandidatePolicy = {
  id: 'unused',
  async propose() {
    throw new Error('the policy was asked');
  },
};

const URL_ = 'https://wiki.test/edit?page=Golden_Gate_Bridge';
/** A plan learned from 'Add the page to the category "Rivers"': append the category line (its effect: the field, no form that submits). */
const appendPlan: Procedure = {
  id: 's-1', origin: 'https://wiki.test', template: 'Add the page to the category {category}', variables: ['category'],
  steps: [{ regUrl: regularizeUrl(URL_).regUrl, action: 'fill(<textbox "Content">, "\\n[[Category:{category}]]", "append")', effect: { role: 'textbox', name: 'Content', submits: false } }],
  sources: [{ episodeId: 'e1', source: 'live', taught: false, endedAt: 1 }], endsWithAnswer: false,
};

/** One task with the plan approved from the start (as the benchmark's decider approves plans). */
async function replayed(multiline: boolean) {
  const page = new EditPage(multiline);
  let t = 1000;
  const deps: AgentDeps = {
    episodes: new InMemoryEpisodeStore(), pageFor: () => page, policy: () => policy, learners: () => [], evaluator: () => null, settings: () => DEFAULT_SETTINGS,
    clock: { now: () => (t += 10) }, logger: { info: () => {}, warn: () => {}, error: () => {} }, newId: () => 'ep-1',
    replay: { find: async ({ task }) => matchPlan(task, [appendPlan], new Map()), record: async () => {}, approvePlans: true },
  };
  const ep = await new AgentController(deps).start({ task: 'Add the page to the category "Bridges"', startUrl: URL_, tabId: 7 });
  return { ep, page };
}

describe('a line appended to a field of lines', () => {
  it('is shown as multiline in the snapshot line', async () => {
    const obs = await new EditPage(true).observe();
    expect(renderNodeLine(obs.nodes[0]!)).toBe('[1] textbox "Content" value="Intro.\\n== History ==" multiline');
  });

  it('as a step of an approved plan, runs unasked as approved', async () => {
    const { ep, page } = await replayed(true);
    expect(ep.steps[0]!.candidates[0]!.semantic).toBe('fill(<textbox "Content">, "\\n[[Category:Bridges]]", "append")');
    expect(ep.steps[0]!.autonomy).toEqual({ ran: true, reason: 'a step of the plan you approved, as approved' });
    expect(page.acted).toHaveLength(1);
  });

  it('in a one-line field, asks: the line break would be an Enter', async () => {
    const { ep, page } = await replayed(false);
    expect(ep.steps[0]!.autonomy).toEqual({ ran: false, reason: 'this plan step may be irreversible' });
    expect(page.acted).toHaveLength(0);
  });
});
