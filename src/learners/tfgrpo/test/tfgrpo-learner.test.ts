import { describe, expect, it } from 'vitest';
import type { Episode } from '../../../core/episode/episode.ts';
import type { StepContext } from '../../../core/learning/learner.ts';
import { TfgrpoLearner } from '../core/tfgrpo-learner.ts';
import { InMemoryTfgrpoStore } from '../core/tfgrpo-store.ts';
import type { PageObservation } from '../../../core/page/observation.ts';
import { blankStep } from '../../../../test/support/step-record.ts';
import { ORIGIN, TFGRPO_ON } from './tfgrpo-helpers.ts';

const TASK = 'Add 2 of the "teapot" to the cart';

function episode(id: string, status: Episode['status'], actions: [string, string][], replayed: string[] = []): Episode {
  return {
    id, origin: ORIGIN, task: TASK, startUrl: `${ORIGIN}/list`, tabId: 1, status, answer: null, error: null,
    learners: ['tfgrpo'], attempt: 1, kind: 'live', startedAt: 0, endedAt: 1,
    steps: actions.map(([regUrl, semantic], index) => blankStep({
      index, url: `${ORIGIN}${regUrl.replace('ID', '7')}`, regUrl, replayed,
      chosen: { action: 'click([1])', semantic, decision: 'approved' },
      result: { ok: true, navigated: false },
    })),
  };
}

const WIN: [string, string][] = [
  ['/list', 'click(<link "Red teapot">)'],
  ['/product/ID', 'fill(<spinbutton "Quantity">, "2")'],
  ['/product/ID', 'click(<button "Add to cart">)'],
];
const LOSE: [string, string][] = [
  ['/list', 'click(<link "Red teapot">)'],
  ['/product/ID', 'click(<button "Add to cart">)'],
  ['/product/ID', 'click(<link "Reviews">)'],
];

function context(episodeId: string, regUrl: string): StepContext {
  const observation = { url: `${ORIGIN}/product/7`, title: 'Red teapot' } as unknown as PageObservation;
  return { episodeId, stepIndex: 0, task: TASK, origin: ORIGIN, url: `${ORIGIN}/product/7`, regUrl, observation, effectiveState: [] };
}

const newLearner = (settings = TFGRPO_ON, store = new InMemoryTfgrpoStore()) =>
  ({ store, learner: new TfgrpoLearner({ store, settings: () => settings, model: null, clock: { now: () => 1000 } }) });

describe('TfgrpoLearner without a model (rule path)', () => {
  it('a group stays open until it is mixed, then its contrast becomes an experience used in the next prompt', async () => {
    const { store, learner } = newLearner();
    const first = await learner.learn({ episode: episode('e1', 'failure', LOSE), rewards: [] });
    expect(first).toMatchObject({ verdict: 'pending', groupSize: 1, reason: 'the group has 1 of 3 attempts', added: [] });
    const second = await learner.learn({ episode: episode('e2', 'success', WIN), rewards: [] });
    expect(second).toMatchObject({ verdict: 'mixed', groupSize: 2, path: 'rules', reason: null });
    expect(second.added).toHaveLength(1);
    // What the panel shows on the episode's last step.
    expect(first.notes[0]).toBe('library unchanged: the group has 1 of 3 attempts');
    expect(second.notes[0]).toBe('group of 2 attempts (mixed): experiences 1 added by page-type contrasts (no model)');

    const [entry] = await store.library(ORIGIN);
    expect(entry).toMatchObject({
      id: second.added[0],
      source: 'rule',
      text: 'On product detail pages (/product/ID): the successful attempts did fill(<spinbutton "Quantity">, "{quantity}") where the failed ones did click(<link "Reviews">).',
      hint: { pageType: '/product/ID', prefer: ['fill(<spinbutton "Quantity">, "{quantity}")'], avoid: ['click(<link "Reviews">)'] },
      provenance: { createdBy: { task: TASK, episodeIds: ['e1', 'e2'], at: 1000 }, createdAt: 1000, inPrompt: 0 },
    });
    expect(await store.pendingGroup(`${ORIGIN}\nadd {} of the teapot to the cart`)).toBeNull();

    const sections = await learner.promptSections(context('e3', '/product/ID'));
    expect(sections).toEqual([{
      id: entry!.id, title: 'Experience 1', text: entry!.text,
      suggestedActions: ['fill(<spinbutton "Quantity">, "2")'], discouragedActions: ['click(<link "Reviews">)'],
    }]);
  });

  it('a group whose attempts all failed changes nothing and says so', async () => {
    const { store, learner } = newLearner();
    await learner.learn({ episode: episode('e1', 'failure', LOSE), rewards: [] });
    await learner.learn({ episode: episode('e2', 'failure', LOSE), rewards: [] });
    const third = await learner.learn({ episode: episode('e3', 'failure', LOSE), rewards: [] });
    expect(third).toMatchObject({
      verdict: 'all-failure', groupSize: 3, added: [],
      reason: 'all 3 attempts in the group failed: with no contrast between winners and losers there is nothing to learn, so the library is unchanged',
    });
    expect(third.notes[0]).toBe('group of 3 attempts (all-failure): library unchanged: all 3 attempts in the group failed: with no contrast between winners and losers there is nothing to learn, so the library is unchanged');
    expect(await store.library(ORIGIN)).toEqual([]);
  });

  it('with rule hints off and no model, it says plainly that it needs a model and does nothing', async () => {
    const { store, learner } = newLearner({ ...TFGRPO_ON, ruleHints: false });
    expect(learner.capability().path).toBeNull();
    expect(learner.capability().message).toMatch(/learns its experiences through a model/);
    await learner.learn({ episode: episode('e1', 'failure', LOSE), rewards: [] });
    const r = await learner.learn({ episode: episode('e2', 'success', WIN), rewards: [] });
    expect(r.reason).toMatch(/^Training-Free GRPO learns its experiences through a model/);
    expect(await store.library(ORIGIN)).toEqual([]);
  });

  it('an episode without a verdict joins no group', async () => {
    const { learner } = newLearner();
    const r = await learner.learn({ episode: episode('e1', 'stopped', LOSE), rewards: [] });
    expect(r).toMatchObject({ verdict: 'skipped', reason: 'the episode ended as stopped, without a verdict' });
  });

  it('counts each use in a prompt, and the successes after it', async () => {
    const { store, learner } = newLearner();
    await learner.learn({ episode: episode('e1', 'failure', LOSE), rewards: [] });
    const { added: [id] } = await learner.learn({ episode: episode('e2', 'success', WIN), rewards: [] });
    await learner.learn({ episode: episode('e3', 'success', WIN, [id!]), rewards: [] });
    await learner.learn({ episode: episode('e4', 'failure', LOSE, [id!]), rewards: [] });
    const [entry] = await store.library(ORIGIN);
    expect(entry!.provenance).toMatchObject({ inPrompt: 2, inPromptThenSucceeded: 1 });
  });

  it('the person edits, deletes and undoes from the Memory tab', async () => {
    const { store, learner } = newLearner();
    await learner.learn({ episode: episode('e1', 'failure', LOSE), rewards: [] });
    const { added: [id] } = await learner.learn({ episode: episode('e2', 'success', WIN), rewards: [] });
    expect(await learner.edit(ORIGIN, id!, '  Quantity:  set it first. ')).toBe(true);
    expect(await store.library(ORIGIN)).toMatchObject([{ id, text: 'Quantity: set it first.', hint: null, source: 'person' }]);
    expect(await learner.edit(ORIGIN, id!, '   ')).toBe(false);
    const undone = await learner.undoLastUpdate(ORIGIN);
    expect(undone?.added).toEqual([id]);
    expect(await store.library(ORIGIN)).toEqual([]);
    expect(await learner.undoLastUpdate(ORIGIN)).toBeNull();
  });
});
