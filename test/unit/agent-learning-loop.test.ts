/**
 * Issue 10 through the agent loop: step numbering whatever the decisions,
 * the sampled proposal, loops noticed and shown, exploration after a failure
 * and exploitation after a success (JitRL on an in-memory store, a scripted
 * page and a fixed policy; no model).
 */
import { jitrlDefinition } from '../../src/learners/jitrl/definition.ts';
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { IdbStepRowStore } from '../../src/adapters/idb/idb-step-row-store.ts';
import { AgentController, type AgentDeps } from '../../src/core/agent/agent-controller.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import type { Episode } from '../../src/core/episode/episode.ts';
import { JitrlLearner } from '../../src/learners/jitrl/core/jitrl-learner.ts';
import type { Learner } from '../../src/core/learning/learner.ts';
import { InMemoryStepRowStore } from '../../src/core/stores/in-memory-step-rows.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import type { Action, ActionResult } from '../../src/core/page/action.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import type { CandidatePolicy } from '../../src/core/policy/policy.ts';
import type { PageDriver } from '../../src/core/ports.ts';
import { seededRandom } from '../../src/core/random.ts';
import { DEFAULT_SETTINGS, type Settings } from '../../src/core/settings.ts';

const node = (ref: string, role: string, name: string): SnapshotNode => ({ ref, kind: 'interactive', role, name, states: {}, depth: 0, inViewport: true });

/**
 * A list page with two items and a detail page per item. On a detail page,
 * "Add" puts the item in the cart; "Back" returns to the list. The task wants
 * the blue item; the policy prefers red (by 0.5 nats), then adds.
 */
class ItemsPage implements PageDriver {
  at: 'list' | 'red' | 'blue' = 'list';
  cart: string[] = [];
  async observe(): Promise<PageObservation> {
    const nodes = this.at === 'list'
      ? [node('1', 'link', 'Red item'), node('2', 'link', 'Blue item'), node('3', 'link', 'Help'), node('6', 'link', 'About'), node('7', 'link', 'Contact')]
      : [node('4', 'button', 'Add'), node('5', 'link', 'Back')];
    nodes.push({ ref: null, kind: 'text', role: 'text', name: `Cart: ${this.cart.join(', ') || 'empty'}`, states: {}, depth: 0, inViewport: true });
    return {
      url: this.at === 'list' ? 'https://items.test/' : `https://items.test/item/${this.at}`,
      title: 'Items', nodes, focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [],
      scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
    };
  }
  async act(action: Action): Promise<ActionResult> {
    const ref = 'target' in action && action.target?.kind === 'ref' ? action.target.ref : null;
    if (ref === '1') this.at = 'red';
    else if (ref === '2') this.at = 'blue';
    else if (ref === '5') this.at = 'list';
    else if (ref === '4' && this.at !== 'list') this.cart.push(this.at);
    return { ok: true, navigated: ref !== '4' && ref !== null };
  }
}

/** Fixed logits per page: the list prefers red (margin 0.5); a detail page prefers Add, then Back. */
function itemsPolicy(preferBack = false): CandidatePolicy {
  return {
    id: 'fixed',
    async propose(input) {
      const onList = input.observation.nodes.some((n) => n.ref === '1');
      const added = input.history.some((h) => h.action.startsWith('click(<button "Add"'));
      const texts: [string, number][] = onList
        ? [['click([1])', 1], ['click([2])', 0.5], ['click([3])', -2], ['click([6])', -3], ['click([7])', -4]]
        : added
          ? [['send_msg_to_user("done")', 2], ['click([5])', 0]]
          : preferBack ? [['click([5])', 2], ['click([4])', 0]] : [['click([4])', 2], ['click([5])', 0]];
      const candidates = texts.map(([t, z]) => {
        const parsed = parseAction(t);
        if (!parsed.ok) throw parsed.error;
        return { action: parsed.action, logit: z };
      });
      return { candidates: candidates.slice(0, input.numCandidates), logitSource: 'offline', usage: { calls: 0, promptTokens: 0, completionTokens: 0 }, notes: [] };
    },
  };
}

function setup(options: { settings: Settings; learners?: Learner[]; policy?: CandidatePolicy }) {
  const store = new InMemoryEpisodeStore();
  let page = new ItemsPage();
  let id = 0;
  let t = 1000;
  const deps: AgentDeps = {
    episodes: store,
    pageFor: () => page,
    policy: () => options.policy ?? itemsPolicy(),
    learners: () => options.learners ?? [],
    evaluator: () => null,
    settings: () => options.settings,
    clock: { now: () => (t += 10) },
    logger: { info: () => {}, warn: () => {}, error: () => {} },
    newId: () => `ep-${++id}`,
  };
  return {
    controller: new AgentController(deps),
    newPage: () => { page = new ItemsPage(); return page; },
    page: () => page,
  };
}

const argmax: Settings = { ...DEFAULT_SETTINGS, agent: { ...DEFAULT_SETTINGS.agent, selection: 'argmax' } };
const TASK = 'add the blue item to the cart';

async function runAttempt(s: ReturnType<typeof setup>): Promise<Episode> {
  s.newPage();
  let ep = await s.controller.start({ task: TASK, startUrl: 'https://items.test/', tabId: null, kind: 'bench' });
  while (ep.status === 'awaiting_approval') ep = await s.controller.decide(ep.id, { kind: 'approve' }, { auto: true });
  return s.controller.finish(ep.id, s.page().cart.includes('blue') ? 'success' : 'failure');
}
const path = (ep: Episode) => ep.steps.filter((x) => x.chosen).map((x) => x.chosen!.semantic);

describe('step indexes', () => {
  it('are 0..n−1 with no gaps or repeats after rejecting every candidate, picking and editing; the episode is stored', async () => {
    const memory = await IdbStepRowStore.open({ factory: new IDBFactory() });
    const jitrl = new JitrlLearner({ store: memory, settings: () => jitrlDefinition.settings.read(argmax), random: seededRandom(1), clock: { now: () => 1 } });
    const s = setup({ settings: argmax, learners: [jitrl] });
    let ep = await s.controller.start({ task: TASK, startUrl: 'https://items.test/', tabId: null });
    for (let i = 0; i < 3; i++) ep = await s.controller.decide(ep.id, { kind: 'reject' }); // all three: re-proposal
    expect(ep.steps.map((x) => x.index)).toEqual([0]);
    ep = await s.controller.decide(ep.id, { kind: 'edit', action: 'click([2])' });
    ep = await s.controller.decide(ep.id, { kind: 'reject' });
    ep = await s.controller.decide(ep.id, { kind: 'pick', index: 1 });
    expect(ep.steps.map((x) => x.index)).toEqual([0, 1, 2]);
    const closed = await s.controller.finish(ep.id, 'failure');
    // Today's bug: a duplicate transition id made IndexedDB refuse the whole episode (EpisodeWriteError).
    expect(closed.steps.at(-1)!.learningNotes.filter((n) => n.includes('failed'))).toEqual([]);
    const stored = (await memory.all()).filter((t) => t.episodeId === closed.id);
    expect(stored.filter((t) => !t.id.includes(':rejected:')).map((t) => t.stepIndex)).toEqual([0, 1]);
    // Three rejected at step 1 plus the re-proposal the edit overruled; one at step 2 (the pick takes the open proposal).
    expect(stored.filter((t) => t.id.includes(':rejected:'))).toHaveLength(5);
  });
});

describe('the proposal is the sampled candidate', () => {
  it('sampling (the benchmark\'s rule; the extension defaults to argmax) records how the proposal was drawn; the same seed draws the same', async () => {
    const draws = new Set<string>();
    for (let seed = 0; seed < 12; seed++) {
      const settings: Settings = { ...DEFAULT_SETTINGS, agent: { ...DEFAULT_SETTINGS.agent, seed, selection: 'sampling' } };
      const a = await setup({ settings }).controller.start({ task: TASK, startUrl: 'https://items.test/', tabId: null });
      const b = await setup({ settings }).controller.start({ task: TASK, startUrl: 'https://items.test/', tabId: null });
      const step = a.steps[0]!;
      expect(step.selection?.how).toBe('sampled');
      expect(step.candidates[0]!.semantic).toBe(b.steps[0]!.candidates[0]!.semantic);
      const z = [1, 0.5, -2];
      const p = Math.exp(step.candidates[0]!.adjustedLogit) / z.reduce((sum, x) => sum + Math.exp(x), 0);
      expect(step.selection!.probability).toBeCloseTo(p, 12);
      draws.add(step.candidates[0]!.semantic);
    }
    // Over twelve seeds both likely items get drawn: it samples, it does not always take the top.
    expect(draws.has('click(<link "Red item">)') && draws.has('click(<link "Blue item">)')).toBe(true);
  });

  it('argmax proposes the top adjusted candidate', async () => {
    const ep = await setup({ settings: argmax }).controller.start({ task: TASK, startUrl: 'https://items.test/', tabId: null });
    expect(ep.steps[0]!.selection).toEqual({ how: 'argmax', probability: 1, temperature: 1 });
    expect(ep.steps[0]!.candidates[0]!.semantic).toBe('click(<link "Red item">)');
  });
});

describe('loops', () => {
  it('A → B → A is noticed, shown on the step, and the action that led round it is not proposed again', async () => {
    // The policy prefers "Back" on a detail page: list → red → list.
    const s = setup({ settings: argmax, policy: itemsPolicy(true) });
    let ep = await s.controller.start({ task: TASK, startUrl: 'https://items.test/', tabId: null });
    ep = await s.controller.decide(ep.id, { kind: 'approve' }); // red item
    ep = await s.controller.decide(ep.id, { kind: 'approve' }); // back
    const step = ep.steps[2]!;
    expect(step.loop).toEqual({ since: 0, length: 2, repeated: ['click(<link "Red item">)'] });
    expect(step.candidates.find((c) => c.semantic === 'click(<link "Red item">)')!.barred).toBe('loop');
    expect(step.candidates[0]!.semantic).toBe('click(<link "Blue item">)');
    expect(step.learningNotes.some((n) => n.startsWith('loop: back at the page as it was before step 1'))).toBe(true);
  });
});

describe('exploration after failure, exploitation after success (JitRL, no model)', () => {
  it('the attempt after a failure changes the least-sure step; the one after a success repeats it', async () => {
    const memory = new InMemoryStepRowStore();
    const settings: Settings = { ...argmax };
    const jitrl = new JitrlLearner({ store: memory, settings: () => jitrlDefinition.settings.read(settings), random: seededRandom(1), clock: { now: () => 1 } });
    const s = setup({ settings, learners: [jitrl] });
    const first = await runAttempt(s);
    expect(first.status).toBe('failure');
    expect(path(first)).toEqual(['click(<link "Red item">)', 'click(<button "Add">)', 'send_msg_to_user("done")']);
    // Blame: no step changed nothing, so the least-sure one (the list, margin 0.5) takes the failure,
    // and so does the answer the failure was declared after.
    expect(first.steps.map((x) => x.reward)).toEqual([-1, 0, -1]);

    const second = await runAttempt(s);
    expect(path(second)[0]).toBe('click(<link "Blue item">)');
    expect(second.steps[0]!.candidates.find((c) => c.semantic === 'click(<link "Red item">)')!.barred).toBe('failed');
    expect(second.status).toBe('success');

    // Exploitation: even when sampling, what worked is repeated.
    settings.agent = { ...settings.agent, selection: 'sampling' };
    for (let k = 0; k < 3; k++) {
      const again = await runAttempt(s);
      expect(path(again)).toEqual(path(second));
      expect(again.steps[0]!.selection?.how).toBe('exploited');
      expect(again.status).toBe('success');
    }
  });
});
