/**
 * Issue 31: a first-time user's one-step task, corrected once and marked done,
 * comes back next time as a learned plan. It did not: the template "Make {item}
 * an {role}" read "Make Alan Turing an admin" with item "Al" (the "an" inside
 * "Alan"), and the step's row ("in row \"Alan Turing\"") was not abstracted, so
 * the skill's step was "not among the steps that ran" and no procedure was built.
 */
import { describe, expect, it } from 'vitest';
import { AgentController, type AgentDeps } from '../../src/core/agent/agent-controller.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import { InMemoryExperienceStore } from '../../src/learners/cer/core/experience-store.ts';
import { InMemoryLearnerDataStore } from '../../src/core/learning/in-memory/in-memory-learner-data-store.ts';
import { matchNamePattern } from '../../src/core/learning/shared/skill-variables.ts';
import { buildLearners, procedureKnowledge } from '../../src/core/learning/registry/registry-factories.ts';
import { InMemoryStepRowStore as InMemoryMemoryStore } from '../../src/core/stores/in-memory-step-rows.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import { seededRandom } from '../../src/core/random.ts';
import { abstractWith } from '../../src/core/replay/build-procedures.ts';
import { ProcedureLibrary } from '../../src/core/replay/procedure-library.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import { testLearnerStores } from '../support/learner-stores.ts';

const ORIGIN = 'https://members.test';
const TASK = 'Make Alan Turing an admin';
const inRow = (ref: string, role: string, name: string, row: string): SnapshotNode => ({
  ref, kind: 'interactive', role, name, states: {}, depth: 0, inViewport: true, context: [{ role: 'row', name: row }],
});
/** The members table: a Role combobox and a Remove button per row. */
const members = {
  acted: [] as string[],
  async observe(): Promise<PageObservation> {
    return {
      url: `${ORIGIN}/members.html`, title: 'Members', focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [],
      nodes: [inRow('1', 'combobox', 'Role', 'Ada Lovelace'), inRow('2', 'button', 'Remove', 'Ada Lovelace'), inRow('3', 'combobox', 'Role', 'Alan Turing'), inRow('4', 'button', 'Remove', 'Alan Turing')],
      scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
    };
  },
  async act(action: { type: string }) { members.acted.push(action.type); return { ok: true as const, navigated: false }; },
};

function world() {
  let t = 1_000;
  const clock = { now: () => (t += 10) };
  const stores = { ...testLearnerStores({ memory: new InMemoryMemoryStore(), experiences: new InMemoryExperienceStore(), learnerData: new InMemoryLearnerDataStore() }), episodes: new InMemoryEpisodeStore() };
  // The shipped defaults, as a first-time user has them.
  const ports = { stores, settings: () => DEFAULT_SETTINGS, model: () => null, clock, random: seededRandom(7) };
  const learners = buildLearners(ports).map((b) => b.learner);
  const library = new ProcedureLibrary({ knowledge: procedureKnowledge(ports), episodes: stores.episodes, learnerData: stores.learnerData }, clock);
  let id = 0;
  const deps: AgentDeps = {
    episodes: stores.episodes, pageFor: () => members, learners: () => learners, evaluator: () => null,
    // The policy's wrong guess: Remove on the other row (what the person corrects).
    policy: () => ({
      id: 'wrong',
      async propose() {
        const parsed = parseAction('click([2])');
        if (!parsed.ok) throw parsed.error;
        return { candidates: [{ action: parsed.action, logit: 0 }], logitSource: 'offline', usage: { calls: 0, promptTokens: 0, completionTokens: 0 }, notes: [] };
      },
    }),
    settings: () => DEFAULT_SETTINGS, clock, logger: { info: () => {}, warn: () => {}, error: () => {} }, newId: () => `ep-${++id}`, replay: library,
  };
  return { controller: new AgentController(deps), library };
}

describe('a one-step task taught once', () => {
  it('a template\'s words match whole words only: "an" is not read inside "Alan"', () => {
    // Before: { item: 'Al', role: 'Turing an admin' }.
    expect(matchNamePattern('Make {item} an {role}', TASK)).toEqual({ item: 'Alan Turing', role: 'admin' });
    expect(matchNamePattern('Make {item} an {role}', 'Make Dan an editor')).toEqual({ item: 'Dan', role: 'editor' });
    // A literal that ends in punctuation still meets a value: "{name}'s profile".
    expect(matchNamePattern("Open {name}'s profile", "Open Bob's profile")).toEqual({ name: 'Bob' });
    expect(matchNamePattern('Make {item} an {role}', 'Make Alan Turing anadmin')).toBeNull();
  });

  it('the row an action sits in is abstracted where its whole name is a value of the task, and only there', () => {
    const values = { item: 'Alan Turing', role: 'admin' };
    expect(abstractWith('select_option(<combobox "Role" in row "Alan Turing">, "Admin")', values)).toBe('select_option(<combobox "Role" in row "{item}">, "{role}")');
    expect(abstractWith('click(<button "Remove" in row "Ada Lovelace">)', values)).toBe('click(<button "Remove" in row "Ada Lovelace">)');
    expect(abstractWith('click(<button "Remove" in row "Alan Turing (you)">)', values)).toBe('click(<button "Remove" in row "Alan Turing (you)">)');
  });

  it('corrected once and marked done, it is offered next time as a plan, with the task\'s values bound', async () => {
    const w = world();
    let ep = await w.controller.start({ task: TASK, startUrl: `${ORIGIN}/members.html`, tabId: 7 });
    ep = await w.controller.decide(ep.id, { kind: 'edit', action: 'select_option(<combobox "Role" in row "Alan Turing">, "Admin")', step: 0 });
    ep = await w.controller.decide(ep.id, { kind: 'edit', action: 'send_msg_to_user("")', step: 1, done: true });
    ep = await w.controller.finish(ep.id, 'success');
    expect(ep.status).toBe('success');

    const views = await w.library.list(ORIGIN);
    expect(views.map((v) => [v.procedure.template, v.procedure.steps.map((s) => s.action), v.procedure.sources.map((s) => s.taught), v.blocked])).toEqual([
      ['Make {item} an {role}', ['select_option(<combobox "Role" in row "{item}">, "{role}")'], [true], null],
    ]);

    const next = await w.controller.start({ task: TASK, startUrl: `${ORIGIN}/members.html`, tabId: 7 });
    expect(next.replay).toMatchObject({
      status: 'offered', template: 'Make {item} an {role}', values: { item: 'Alan Turing', role: 'admin' },
      steps: [{ regUrl: '/members.html', action: 'select_option(<combobox "Role" in row "Alan Turing">, "admin")' }],
    });
    // Another member's task binds the plan to that row, not to the taught one.
    const other = await w.controller.start({ task: 'Make Ada Lovelace an admin', startUrl: `${ORIGIN}/members.html`, tabId: 8 });
    expect(other.replay?.steps.map((s) => s.action)).toEqual(['select_option(<combobox "Role" in row "Ada Lovelace">, "admin")']);
  });
});
