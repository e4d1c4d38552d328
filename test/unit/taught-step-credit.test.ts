/**
 * Step credit after a taught success (issue 35 part 5): "a failed alone
 * attempt must not erase a taught step that was right: credit goes to the
 * step that went wrong". Through the agent loop with JitRL on an in-memory
 * store: a person teaches a three-step invite once; the next attempt runs
 * alone on a page whose "Send invite" is gone for a moment, so its first two
 * steps repeat what was taught and only the last goes wrong (the policy's
 * own "Cancel"); the attempt after that, on the page as it was, still takes
 * the taught first two steps from memory.
 */
import { describe, expect, it } from 'vitest';
import { AgentController, type AgentDeps } from '../../src/core/agent/agent-controller.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import type { Episode } from '../../src/core/episode/episode.ts';
import { InMemoryStepRowStore } from '../../src/core/stores/in-memory-step-rows.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import type { Action, ActionResult } from '../../src/core/page/action.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import type { CandidatePolicy } from '../../src/core/policy/policy.ts';
import type { PageDriver } from '../../src/core/ports.ts';
import { seededRandom } from '../../src/core/random.ts';
import { DEFAULT_SETTINGS, type Settings } from '../../src/core/settings.ts';
import { jitrlDefinition } from '../../src/learners/jitrl/definition.ts';
import { JitrlLearner } from '../../src/learners/jitrl/core/jitrl-learner.ts';

const node = (ref: string, role: string, name: string, extra: Partial<SnapshotNode> = {}): SnapshotNode => ({
  ref, kind: 'interactive', role, name, states: {}, depth: 0, inViewport: true, ...extra,
});

/** One form on one URL: a name, a team, "Send invite" (unless `noSend`) and "Cancel". */
class InvitePage implements PageDriver {
  name = '';
  team = 'Design';
  sent: string[] = [];
  cancelled = false;
  constructor(private readonly noSend = false) {}
  async observe(): Promise<PageObservation> {
    const nodes = [
      node('1', 'textbox', 'Full name', { value: this.name }),
      node('2', 'combobox', 'Team', { value: this.team, options: ['Design', 'Research'] }),
      ...(this.noSend ? [] : [node('3', 'button', 'Send invite')]),
      node('4', 'button', 'Cancel'),
    ];
    return {
      url: 'https://crew.test/invite', title: 'Invite', nodes, focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [],
      scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
    };
  }
  async act(action: Action): Promise<ActionResult> {
    const ref = 'target' in action && action.target?.kind === 'ref' ? action.target.ref : null;
    if (action.type === 'fill' && ref === '1') this.name = action.text;
    else if (action.type === 'select_option' && ref === '2') this.team = action.option;
    else if (ref === '3') this.sent.push(`${this.name}/${this.team}`);
    else if (ref === '4') { this.cancelled = true; this.name = ''; this.team = 'Design'; }
    return { ok: true, navigated: false };
  }
}

/** The policy prefers Cancel over Send invite and never proposes the name or the team: only memory brings them. */
const policy: CandidatePolicy = {
  id: 'fixed',
  async propose(input) {
    const texts: [string, number][] = [['click([4])', 1], ['click([3])', 0.5]];
    const candidates = texts
      .filter(([t]) => input.observation.nodes.some((n) => t.includes(`[${n.ref}]`)))
      .map(([t, z]) => {
        const parsed = parseAction(t);
        if (!parsed.ok) throw parsed.error;
        return { action: parsed.action, logit: z };
      });
    return { candidates, logitSource: 'offline', usage: { calls: 0, promptTokens: 0, completionTokens: 0 }, notes: [] };
  },
};

const TASK = 'Invite Mary Jackson to the Research team';
const FILL = 'fill(<textbox "Full name">, "Mary Jackson")';
const SELECT = 'select_option(<combobox "Team">, "Research")';
const SEND = 'click(<button "Send invite">)';
const CANCEL = 'click(<button "Cancel">)';
const path = (ep: Episode) => ep.steps.filter((x) => x.chosen).map((x) => x.chosen!.semantic);

describe('a failed alone attempt after a taught success', () => {
  it('blames the step that went wrong, and the taught steps before it are taken from memory again', async () => {
    // The benchmark's rule: sampling, where memory's settled action is exploited (repeated outright).
    const settings: Settings = { ...DEFAULT_SETTINGS, agent: { ...DEFAULT_SETTINGS.agent, selection: 'sampling', seed: 3 } };
    const memory = new InMemoryStepRowStore();
    const jitrl = new JitrlLearner({ store: memory, settings: () => jitrlDefinition.settings.read(settings), random: seededRandom(1), clock: { now: () => 1 } });
    let page = new InvitePage();
    let id = 0;
    let t = 1000;
    const deps: AgentDeps = {
      episodes: new InMemoryEpisodeStore(), pageFor: () => page, policy: () => policy, learners: () => [jitrl], evaluator: () => null,
      settings: () => settings, clock: { now: () => (t += 10) }, logger: { info: () => {}, warn: () => {}, error: () => {} }, newId: () => `ep-${++id}`,
    };
    const controller = new AgentController(deps);
    const verdict = () => (page.sent.length === 1 && page.sent[0] === 'Mary Jackson/Research' ? 'success' : 'failure');
    const start = () => controller.start({ task: TASK, startUrl: 'https://crew.test/invite', tabId: null, kind: 'bench' });

    // Taught: the person edits in the name and the team, then picks Send invite over the proposed Cancel.
    let ep = await start();
    ep = await controller.decide(ep.id, { kind: 'edit', action: FILL });
    ep = await controller.decide(ep.id, { kind: 'edit', action: SELECT });
    ep = await controller.decide(ep.id, { kind: 'pick', index: ep.steps.at(-1)!.candidates.findIndex((c) => c.semantic === SEND) });
    const taught = await controller.finish(ep.id, verdict());
    expect([path(taught), taught.status]).toEqual([[FILL, SELECT, SEND], 'success']);

    // Alone, with "Send invite" gone: the taught steps run, then the policy's Cancel, and the task fails.
    page = new InvitePage(true);
    ep = await start();
    while (ep.status === 'awaiting_approval' && path(ep).length < 3) ep = await controller.decide(ep.id, { kind: 'approve' }, { auto: true });
    const alone = await controller.finish(ep.id, verdict());
    expect([path(alone), alone.status]).toEqual([[FILL, SELECT, CANCEL], 'failure']);
    // The failure goes to the step that went wrong, not to the taught steps before it.
    expect(alone.steps.filter((x) => x.chosen).map((x) => x.reward)).toEqual([0, 0, -1]);

    // Alone again, on the page as it was: the taught steps are still the ones memory takes.
    page = new InvitePage();
    ep = await start();
    while (ep.status === 'awaiting_approval' && path(ep).length < 3) ep = await controller.decide(ep.id, { kind: 'approve' }, { auto: true });
    expect(path(ep).slice(0, 2)).toEqual([FILL, SELECT]);
    expect(ep.steps.slice(0, 2).map((x) => x.selection?.how)).toEqual(['exploited', 'exploited']);
  });
});
