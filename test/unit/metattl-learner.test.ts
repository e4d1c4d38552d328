/**
 * Meta-TTL through the agent controller, with the registry building it and
 * the local OpenAI-compatible test server playing the actor and the
 * meta-agent: each attempt's guide is the one the meta-agent wrote after the
 * previous attempt — replaced, not appended — and without a model nothing
 * changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiChatModel } from '../../src/adapters/openai/openai-chat-model.ts';
import { AgentController, type AgentDeps } from '../../src/core/agent/agent-controller.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import { InMemoryExperienceStore } from '../../src/learners/cer/core/experience-store.ts';
import type { LearnerPorts } from '../../src/core/learning/learner-definition.ts';
import { NEEDS_MODEL } from '../../src/learners/metattl/core/guide-adaptation.ts';
import { InMemoryLearnerDataStore } from '../../src/core/learning/in-memory/in-memory-learner-data-store.ts';
import { LearnerDataGuideStore } from '../../src/learners/metattl/core/guide-store.ts';
import { DEFAULT_METATTL } from '../../src/learners/metattl/core/metattl-settings.ts';
import { buildLearners, enabledLearners } from '../../src/core/learning/registry/registry-factories.ts';
import { InMemoryStepRowStore } from '../../src/core/stores/in-memory-step-rows.ts';
import type { PageObservation } from '../../src/core/page/observation.ts';
import { createLlmPolicy } from '../../src/core/policy/llm-policy.ts';
import { createOfflinePolicy } from '../../src/core/policy/offline-policy.ts';
import type { ChatModel } from '../../src/core/ports.ts';
import { seededRandom } from '../../src/core/random.ts';
import { DEFAULT_SETTINGS, type Settings } from '../../src/core/settings.ts';
import { startOpenAiTestServer, type ChatCompletionBody, type OpenAiTestServer } from '../support/openai-test-server.ts';
import { testLearnerStores } from '../support/learner-stores.ts';

const PAGE: PageObservation = {
  url: 'https://shop.test/', title: 'Shop', focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [],
  scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
  nodes: [
    { ref: '1', kind: 'interactive', role: 'link', name: 'Kettles', states: {}, depth: 0, inViewport: true },
    { ref: '2', kind: 'interactive', role: 'button', name: 'Add to cart', states: {}, depth: 0, inViewport: true },
  ],
};

let server: OpenAiTestServer;
let model: ChatModel;
const actorPrompts: string[] = [];
let metaCalls = 0;

beforeAll(async () => {
  server = await startOpenAiTestServer();
  model = createOpenAiChatModel({ preset: 'custom', baseUrl: server.baseUrl, apiKey: '', model: 'test-model', logitMode: 'verbalized', timeoutMs: 5000 });
  server.respond((body: ChatCompletionBody) => {
    const system = body.messages[0]!.content;
    if (system.includes('You coach a web agent')) {
      metaCalls++;
      return JSON.stringify({ diagnosis: `call ${metaCalls}`, guide: `GUIDE-${metaCalls}: press Add to cart.` });
    }
    actorPrompts.push(body.messages.map((m) => m.content).join('\n'));
    return JSON.stringify({ candidates: [{ option: 1, action: 'click([2])', confidence: 80, why: 'add it' }], best: 1 });
  });
});
afterAll(async () => {
  await server.close();
});

function controller(settings: Settings, chat: ChatModel | null, learnerData: InMemoryLearnerDataStore) {
  let t = 1000;
  let id = 0;
  const ports: LearnerPorts = {
    stores: testLearnerStores({ memory: new InMemoryStepRowStore(), experiences: new InMemoryExperienceStore(), learnerData }),
    settings: () => settings,
    model: () => chat,
    clock: { now: () => (t += 10) },
    random: seededRandom(1),
  };
  const built = buildLearners(ports, { ids: ['metattl'] });
  const deps: AgentDeps = {
    episodes: new InMemoryEpisodeStore(),
    pageFor: () => ({ observe: async () => PAGE, act: async () => ({ ok: true, navigated: false }) }),
    policy: () => (chat ? createLlmPolicy(chat, { logitMode: 'verbalized' }) : createOfflinePolicy()),
    learners: () => enabledLearners(built, settings),
    evaluator: () => null,
    settings: () => settings,
    clock: ports.clock,
    logger: { info: () => {}, warn: () => {}, error: () => {} },
    newId: () => `ep-${++id}`,
  };
  return new AgentController(deps);
}

async function attempt(c: AgentController) {
  let ep = await c.start({ task: 'Add a kettle to the cart', startUrl: 'https://shop.test/', tabId: 1 });
  ep = await c.decide(ep.id, { kind: 'approve' });
  return c.finish(ep.id, 'failure');
}

const ON: Settings = { ...DEFAULT_SETTINGS, learners: { metattl: { ...DEFAULT_METATTL, enabled: true } } };

describe('Meta-TTL through the controller', () => {
  it('each attempt follows the guide written after the previous one, replacing it', async () => {
    actorPrompts.length = 0;
    metaCalls = 0;
    const learnerData = new InMemoryLearnerDataStore();
    const c = controller(ON, model, learnerData);
    const first = await attempt(c);
    expect(first.learners).toEqual(['metattl']);
    expect(first.plans).toEqual({ metattl: { key: 'https://shop.test add a kettle to the cart', guide: null } });
    expect(actorPrompts[0]).not.toContain('Advice learned from earlier attempts');
    expect(first.steps.at(-1)!.learningNotes.some((n) => n.startsWith('metattl: the meta-agent rewrote the guide'))).toBe(true);

    const second = await attempt(c);
    expect(second.plans?.['metattl']).toMatchObject({ guide: 'GUIDE-1: press Add to cart.' });
    expect(actorPrompts.at(-1)).toContain('GUIDE-1: press Add to cart.');

    await attempt(c);
    const third = actorPrompts.at(-1)!;
    expect(third).toContain('GUIDE-2: press Add to cart.');
    expect(third).not.toContain('GUIDE-1');
    // The meta-agent saw the guide attempt 2 followed and the page it acted on.
    const metaRequest = server.requests.filter((r) => r.messages[0]!.content.includes('You coach a web agent')).at(-1)!;
    const log = metaRequest.messages.at(-1)!.content;
    expect(log).toContain('ATTEMPT 3');
    expect(log).toContain('GUIDE-2: press Add to cart.');
    expect(log).toContain('[ACTION] click(<button "Add to cart">) → ok');
    expect(log).toContain('button "Add to cart"');
    // Stored in the generic learner store, validated on read: one record for the task, its history newest last.
    const stored = await new LearnerDataGuideStore(learnerData, 'metattl').list('https://shop.test');
    expect(stored.map((r) => [r.key, r.guide, r.history.length, r.conversation.length])).toEqual([
      ['https://shop.test add a kettle to the cart', 'GUIDE-3: press Add to cart.', 3, 3],
    ]);
  });

  it('without a model it plans nothing, shapes nothing, stores nothing, and says so', async () => {
    const learnerData = new InMemoryLearnerDataStore();
    const c = controller(ON, null, learnerData);
    const ep = await attempt(c);
    expect(ep.plans ?? {}).toEqual({});
    expect(ep.steps.at(-1)!.learningNotes).toContain(`metattl: ${NEEDS_MODEL}`);
    expect(await learnerData.list('metattl')).toEqual([]);
  });
});
