/**
 * Issue 23: replay reads what the learners know through the registry
 * (LearnerFactory.procedures), never by learner. Two fake sources, one with
 * templates and one with the steps that ran, give a procedure; without the
 * second there is none, and the reason says so.
 */
import { describe, expect, it } from 'vitest';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import { EpisodeSchema, recordedStepRecord } from '../../src/core/episode/episode.ts';
import { InMemoryLearnerDataStore } from '../../src/core/learning/in-memory/in-memory-learner-data-store.ts';
import type { ProcedureKnowledge } from '../../src/core/learning/learner-definition.ts';
import { ProcedureLibrary } from '../../src/core/replay/procedure-library.ts';

const SHOP = 'http://shop.test';
const template: ProcedureKnowledge = {
  templates: async (origin) => [{
    id: 'tpl-1', origin, name: 'Add {item} to the cart', episodeIds: ['e1'],
    steps: [
      { text: 'open the item', regUrl: '/', exampleActions: ['click(<link "{item}">)'] },
      { text: 'add it', regUrl: '/p/{id}', exampleActions: ['click(<button "Add to cart">)'] },
    ],
  }],
};
const ran: ProcedureKnowledge = {
  ranSteps: async (episode) => (episode.id === 'e1' ? [
    { id: 'e1:1', regUrl: '/p/{id}', action: 'click(<button "Add to cart">)', stepIndex: 1 },
    { id: 'e1:0', regUrl: '/', action: 'click(<link "Teapot">)', stepIndex: 0 },
  ] : []),
};

async function library(knowledge: ProcedureKnowledge[]) {
  const episodes = new InMemoryEpisodeStore();
  const steps = [['/', 'click(<link "Teapot">)'], ['/p/{id}', 'click(<button "Add to cart">)']].map(([regUrl, semantic], index) =>
    recordedStepRecord({ index, url: `${SHOP}${regUrl}`, regUrl: regUrl!, semantic: semantic!, decision: 'approved', result: { ok: true, navigated: false }, startedAt: index }));
  await episodes.put(EpisodeSchema.parse({
    id: 'e1', origin: SHOP, task: 'Add Teapot to the cart', startUrl: `${SHOP}/`, tabId: null, status: 'success', steps, answer: null, error: null,
    learners: [], attempt: 1, kind: 'live', startedAt: 0, endedAt: 5,
  }));
  return new ProcedureLibrary({ knowledge, episodes, learnerData: new InMemoryLearnerDataStore() }, { now: () => 9 });
}

describe('replay over the registry\'s procedure knowledge', () => {
  it('builds a procedure from one source\'s template and another\'s steps that ran, in step order', async () => {
    const { procedures, skipped } = await (await library([template, ran])).build(SHOP);
    expect(skipped).toEqual([]);
    expect(procedures).toEqual([{
      id: 'tpl-1', origin: SHOP, template: 'Add {item} to the cart', variables: ['item'],
      steps: [{ regUrl: '/', action: 'click(<link "{item}">)' }, { regUrl: '/p/{id}', action: 'click(<button "Add to cart">)' }],
      sources: [{ episodeId: 'e1', source: 'live', taught: false, endedAt: 5 }], endsWithAnswer: false,
    }]);
  });

  it('has none when no learner knows what ran', async () => {
    expect(await (await library([template])).build(SHOP)).toEqual({
      procedures: [], skipped: [{ skillId: 'tpl-1', reason: 'no verified success whose steps a learner stored' }],
    });
  });
});
