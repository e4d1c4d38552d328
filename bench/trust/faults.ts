/**
 * Injected model faults through the real model path: the openai client (with
 * a fetch that misbehaves on purpose), the retrying wrapper, the LLM policy
 * and the agent controller, on the scripted shop. A seeded ~35% of calls
 * fail in one of nine ways. Counted: crashes (an exception out of the
 * controller), invalid actions executed, and how each fault was handled —
 * retried, noted on the step, or the episode paused with a message. A fault
 * that was none of these is "silent".
 */
import { learnersOff } from '../../src/core/learning/registry/registry-factories.ts';
import { createOpenAiChatModel } from '../../src/adapters/openai/openai-chat-model.ts';
import { retryingChatModel } from '../../src/core/llm/retrying-model.ts';
import { createLlmPolicy } from '../../src/core/policy/llm-policy.ts';
import { AgentController } from '../../src/core/agent/agent-controller.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import { DEFAULT_SETTINGS, type Settings } from '../../src/core/settings.ts';
import { seededRandom } from '../../src/core/random.ts';
import { FakeShop, nextShopAction } from './fake-shop.ts';
import { candidateJson } from './scripted-models.ts';
import type { Episode } from '../../src/core/episode/episode.ts';

export const FAULT_KINDS = ['timeout', '429', '500', 'reset', 'truncated', 'invalid-json', 'wrong-schema', 'unknown-refs', 'empty'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

const completion = (content: string) =>
  new Response(JSON.stringify({
    id: 'c', object: 'chat.completion', created: 0, model: 'fault-model',
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
  }), { status: 200, headers: { 'content-type': 'application/json' } });

const errorResponse = (status: number, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ error: { message: `injected ${status}`, type: 'server_error' } }), { status, headers: { 'content-type': 'application/json', ...headers } });

export async function runFaults(target: number): Promise<Record<string, number | string | Record<string, number>>> {
  const random = seededRandom(11);
  const shop = new FakeShop();
  const injected: Record<string, number> = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0]));
  let calls = 0;
  let faults = 0;
  let pendingFaults = 0;
  let retried = 0;

  const fetchImpl: typeof fetch = async (_url, init) => {
    calls++;
    const good = candidateJson([nextShopAction(shop, 1)]);
    if (random.next() >= 0.35) return completion(good);
    const kind = FAULT_KINDS[Math.floor(random.next() * FAULT_KINDS.length)]!;
    injected[kind]!++;
    faults++;
    pendingFaults++;
    switch (kind) {
      case 'timeout':
        return new Promise<Response>((_, reject) => {
          const signal = init?.signal;
          const fail = () => reject(Object.assign(new Error('The operation was aborted.'), { name: 'AbortError' }));
          if (signal?.aborted) fail();
          signal?.addEventListener('abort', fail, { once: true });
        });
      case '429': return errorResponse(429, { 'retry-after': '0' });
      case '500': return errorResponse(500);
      case 'reset': throw new TypeError('fetch failed (ECONNRESET)');
      case 'truncated': return completion(good.slice(0, Math.floor(good.length / 2)));
      case 'invalid-json': return completion('Sure! I would click the kettle.');
      case 'wrong-schema': return completion(JSON.stringify({ actions: ['click the kettle'] }));
      case 'unknown-refs': return completion(candidateJson(['click([99])', 'fill([77], "x")']));
      case 'empty': return completion(JSON.stringify({ candidates: [] }));
    }
  };

  const settings: Settings = {
    ...DEFAULT_SETTINGS,
    provider: { ...DEFAULT_SETTINGS.provider, preset: 'custom', baseUrl: 'http://127.0.0.1:9/v1', model: 'fault-model', logitMode: 'verbalized', timeoutMs: 150 },
    policy: { ...DEFAULT_SETTINGS.policy, numCandidates: 1 },
    learners: learnersOff(DEFAULT_SETTINGS),
    agent: { ...DEFAULT_SETTINGS.agent, maxSteps: 8, selection: 'sampling' }, // as measured before argmax became the default
  };
  const model = retryingChatModel(createOpenAiChatModel(settings.provider, fetchImpl), {
    attempts: 3, baseDelayMs: 1, sleep: async () => undefined, onRetry: () => { retried++; },
  });
  const policy = createLlmPolicy(model, { logitMode: 'verbalized' });
  const store = new InMemoryEpisodeStore();
  let id = 0;
  const controller = new AgentController({
    episodes: store, pageFor: () => shop, policy: () => policy, learners: () => [], evaluator: () => null, settings: () => settings,
    clock: { now: () => Date.now() }, logger: { info: () => {}, warn: () => {}, error: () => {} }, newId: () => `f${++id}`,
  });

  let crashes = 0;
  let noted = 0;
  let paused = 0;
  let episodes = 0;
  /** Attributes the faults of the last controller call to what the person saw. */
  const account = (before: number, ep: Episode, notesBefore: number) => {
    const n = pendingFaults;
    pendingFaults = 0;
    if (n === 0) return;
    const retriedNow = retried - before;
    const notes = ep.steps.reduce((k, s) => k + s.learningNotes.length, 0) - notesBefore;
    if (ep.status === 'paused' && ep.error) paused += Math.max(0, n - retriedNow);
    else if (notes > 0) noted += Math.max(0, n - retriedNow);
  };
  const notesOf = (ep: Episode) => ep.steps.reduce((k, s) => k + s.learningNotes.length, 0);

  while (faults < target && episodes < 10_000) {
    episodes++;
    shop.page = 'search';
    shop.query = '';
    shop.cartAdds = 0;
    try {
      let before = retried;
      let ep = await controller.start({ task: 'add the kettle to the cart', startUrl: 'https://shop.test/', tabId: 1 });
      account(before, ep, 0);
      for (let turn = 0; turn < 30; turn++) {
        const notes = notesOf(ep);
        before = retried;
        if (ep.status === 'awaiting_approval') ep = await controller.decide(ep.id, { kind: 'approve' });
        else if (ep.status === 'paused') ep = await controller.resume(ep.id);
        else if (ep.status === 'awaiting_verdict') ep = await controller.finish(ep.id, 'success');
        else break;
        account(before, ep, notes);
      }
      if (ep.status !== 'success') await controller.stop(ep.id);
    } catch (err) {
      crashes++;
      pendingFaults = 0;
      void err;
    }
  }
  const silent = faults - retried - noted - paused;
  return {
    'model calls': calls,
    'faults injected': faults,
    'fault rate': `${((100 * faults) / Math.max(1, calls)).toFixed(1)}%`,
    'by kind': injected,
    episodes,
    crashes,
    'invalid actions executed': shop.invalid,
    'retried (transient)': retried,
    'noted on the step': noted,
    'paused with a message': paused,
    'silent': Math.max(0, silent),
  };
}
