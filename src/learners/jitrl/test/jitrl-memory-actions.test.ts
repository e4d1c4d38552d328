/** JitRL's transition browser as its declared actions (list, site, delete), run as the background runs them (validated payload and reply). */
import { describe, expect, it } from 'vitest';
import { memorySites } from '../../../core/learning/memory-sites.ts';
import { runLearnerAction } from '../../../core/learning/learner-actions.ts';
import { portsFor, type LearnerPorts } from '../../../core/learning/learner-definition.ts';
import { storesFrom } from '../../../core/learning/learner-stores.ts';
import { InMemoryLearnerDataStore } from '../../../core/learning/in-memory/in-memory-learner-data-store.ts';
import { DEFAULT_SETTINGS } from '../../../core/settings.ts';
import { InMemoryMemoryStore, type MemoryStore, type Transition } from '../core/transition.ts';
import { TRANSITIONS } from '../core/stores.ts';
import { jitrlDefinition } from '../definition.ts';
import { jitrlFactory } from '../factory.ts';
import { scriptedRandom } from './jitrl-helpers.ts';

const site = (origin: string, items: number, lastUpdated: number) => ({ origin, items, lastUpdated });

const row = (id: string, origin: string, regUrl: string, action: string, updatedAt: number): Transition => ({
  id, origin, regUrl, effectiveState: [], stateTokens: [], task: 'Sign up', taskTokens: ['sign', 'up'], action, reward: 1,
  rewardSource: 'person', futureRewards: [1], episodeId: id.split(':')[0]!, stepIndex: Number(id.split(':')[1]), createdAt: updatedAt, updatedAt,
});

describe('the transition browser as JitRL\'s actions', () => {
  it('lists, counts and deletes one site\'s rows; the site table counts them; a bad payload is a typed error', async () => {
    const store = new InMemoryMemoryStore();
    const stores = storesFrom(new InMemoryLearnerDataStore(), () => store as MemoryStore as never);
    const ports: LearnerPorts = portsFor(jitrlDefinition, { stores, settings: () => DEFAULT_SETTINGS, model: () => null, clock: { now: () => 0 }, random: scriptedRandom(0.5) });
    const learner = jitrlFactory.create(ports);
    const actions = [{ id: jitrlDefinition.id, label: jitrlDefinition.label, actions: jitrlDefinition.actions ?? {}, handlers: jitrlFactory.actionHandlers!(ports, learner) }];
    expect(stores.declared(TRANSITIONS)).toBe(store);
    await store.putEpisode('e1', [row('e1:0', 'https://a.test', 'a.test/form', 'click(<button "Go">)', 7), row('e1:1', 'https://a.test', 'a.test/done', 'click(<button "Close">)', 9)]);
    await store.putEpisode('e2', [row('e2:0', 'https://b.test', 'b.test/', 'click(<link "Home">)', 3)]);
    const call = (action: string, payload: unknown) => runLearnerAction(actions, jitrlDefinition.id, action, payload);
    expect(await call('site', { origin: 'https://a.test' })).toEqual({ transitions: 2, pages: 2, lastUpdated: 9 });
    expect(((await call('list', { origin: 'https://a.test', query: 'close', limit: 50, offset: 0 })) as Transition[]).map((t) => t.id)).toEqual(['e1:1']);
    expect(await memorySites([{ memory: jitrlFactory.memory!(ports) }])).toEqual([site('https://a.test', 2, 9), site('https://b.test', 1, 3)]);
    expect(await call('delete', { ids: ['e1:1', 'nope'] })).toEqual({ deleted: 1 });
    expect(await call('site', { origin: 'https://a.test' })).toEqual({ transitions: 1, pages: 1, lastUpdated: 7 });
    await expect(call('delete', { ids: [] })).rejects.toMatchObject({ name: 'LearnerActionError' });
    await expect(call('list', { origin: 'https://a.test', query: '', limit: 5000, offset: 0 })).rejects.toMatchObject({ name: 'LearnerActionError' });
  });
});
