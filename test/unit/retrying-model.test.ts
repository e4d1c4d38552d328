/**
 * Model faults that another try can fix are retried with backoff (Retry-After
 * honoured); the rest go up at once. The keep-alive pings while a call runs.
 */
import { describe, expect, it } from 'vitest';
import { retryAfterMs, retryingChatModel } from '../../src/core/llm/retrying-model.ts';
import { ProviderError } from '../../src/core/errors.ts';
import type { ChatModel, ChatRequest, ChatResponse } from '../../src/core/ports.ts';
import { createKeepAlive, keptAliveModel } from '../../src/adapters/chrome/keep-alive.ts';

const request: ChatRequest = { messages: [{ role: 'user', content: 'hi' }], temperature: 0, maxTokens: 5, logprobs: false, topLogprobs: 0, json: false };
const answer: ChatResponse = { text: 'ok', tokens: null, usage: { promptTokens: 1, completionTokens: 1 }, model: 'm' };

function scripted(errors: unknown[]): ChatModel & { calls: number } {
  const m = {
    calls: 0,
    async chat() {
      const e = errors[m.calls++];
      if (e) throw e;
      return answer;
    },
  };
  return m;
}

describe('retryingChatModel', () => {
  it('retries 429, 5xx and timeouts with doubling delays, honouring Retry-After', async () => {
    const limited = new ProviderError('rate_limited', 'slow down', { status: 429, cause: { headers: new Headers({ 'retry-after': '7' }) } });
    const model = scripted([new ProviderError('server', 'boom', { status: 503 }), limited, new ProviderError('timeout', 'slow')]);
    const waits: number[] = [];
    const out = await retryingChatModel(model, { attempts: 4, baseDelayMs: 100, sleep: async (ms) => void waits.push(ms) }).chat(request);
    expect(out.text).toBe('ok');
    expect(model.calls).toBe(4);
    expect(waits).toEqual([100, 7000, 400]);
  });

  it('gives up after the last attempt with the provider error, and never retries auth or bad requests', async () => {
    const waits: number[] = [];
    const sleep = async (ms: number) => void waits.push(ms);
    const down = scripted([new ProviderError('server', 'a'), new ProviderError('server', 'b'), new ProviderError('server', 'c')]);
    await expect(retryingChatModel(down, { attempts: 3, baseDelayMs: 10, sleep }).chat(request)).rejects.toThrow('c');
    expect(down.calls).toBe(3);
    const auth = scripted([new ProviderError('auth', 'bad key', { status: 401 })]);
    await expect(retryingChatModel(auth, { attempts: 3, sleep }).chat(request)).rejects.toThrow('bad key');
    expect(auth.calls).toBe(1);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs({ cause: { headers: { 'retry-after': '2' } } })).toBe(2000);
    expect(retryAfterMs({ cause: { headers: new Headers({ 'retry-after': new Date(10_000).toUTCString() }) } }, 4_000)).toBe(6000);
    expect(retryAfterMs(new Error('x'))).toBeNull();
  });
});

describe('keep-alive', () => {
  it('pings on an interval only while a model call is in flight', async () => {
    const intervals: (() => void)[] = [];
    let cleared = 0;
    let pings = 0;
    const keepAlive = createKeepAlive({ ping: async () => pings++, setInterval: (fn) => intervals.push(fn), clearInterval: () => cleared++ });
    let release!: () => void;
    const slow: ChatModel = { chat: () => new Promise((r) => (release = () => r(answer))) };
    const call = keptAliveModel(slow, keepAlive).chat(request);
    expect(keepAlive.active).toBe(true);
    intervals[0]!();
    intervals[0]!();
    expect(pings).toBe(2);
    release();
    await call;
    expect(keepAlive.active).toBe(false);
    expect(cleared).toBe(1);
  });
});
