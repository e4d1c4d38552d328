import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiChatModel, testProvider } from '../../src/adapters/openai/openai-chat-model.ts';
import { describeError, isModelOutputError, isProviderError } from '../../src/core/errors.ts';
import { createLlmPolicy } from '../../src/core/policy/llm-policy.ts';
import type { PolicyInput } from '../../src/core/policy/policy.ts';
import { formatAction } from '../../src/core/page/action-grammar.ts';
import type { ProviderSettings } from '../../src/core/settings.ts';
import { startOpenAiTestServer, type OpenAiTestServer } from '../support/openai-test-server.ts';
import { candidateAnswer, loginPage, THREE } from '../support/llm-fixtures.ts';

const input = (numCandidates = 3): PolicyInput => ({
  task: 'Sign in as ada@example.com',
  observation: loginPage,
  renderedObservation: 'Page: Sign in (http://127.0.0.1:9/login)\n[1] textbox "Email"\n[2] textbox "Password"\n[3] button "Sign in"\n[4] link "Forgot password?"',
  history: [],
  sections: [{ id: 'skill:login', title: 'Logging in', text: 'Fill the email, then the password, then press Sign in.' }],
  numCandidates,
  temperature: 0.8,
});

const answer = candidateAnswer;

let server: OpenAiTestServer;
const provider = (over: Partial<ProviderSettings> = {}): ProviderSettings => ({
  preset: 'custom',
  baseUrl: server.baseUrl,
  apiKey: '',
  model: 'test-model',
  logitMode: 'auto',
  timeoutMs: 5000,
  ...over,
});

beforeAll(async () => {
  server = await startOpenAiTestServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  server.requests.length = 0;
  server.rejectResponseFormat(false);
});

describe('llm policy, token logprobs', () => {
  it('reads each option logit from top_logprobs at the located "best" token (compact JSON)', async () => {
    server.respond(() => ({ content: answer(THREE), bestDigitLogprobs: [{ '1': -0.2, '2': -1.9, '3': -3.1 }] }));
    const policy = createLlmPolicy(createOpenAiChatModel(provider()), { logitMode: 'logprobs' });
    const out = await policy.propose(input());
    expect(out.logitSource).toBe('logprobs');
    expect(out.candidates.map((c) => formatAction(c.action))).toEqual(['fill([1], "ada@example.com")', 'click([3])', 'click([4])']);
    expect(out.candidates.map((c) => c.logit)).toEqual([-0.2, -1.9, -3.1]);
    expect(out.candidates[0]?.rationale).toBe('reason 1');
    expect(out.usage.calls).toBe(1);
    const req = server.requests[0]!;
    expect(req.logprobs).toBe(true);
    expect(req.top_logprobs).toBe(5);
    expect(req.response_format).toEqual({ type: 'json_object' });
    expect(req.model).toBe('test-model');
    // The replayed section is in the prompt under its id.
    expect(req.messages[1]?.content).toContain('### [skill:login] Logging in');
  });

  it('finds the index token when it carries a leading space (pretty JSON) and floors a missing option', async () => {
    server.respond(() => ({ content: answer(THREE, 2, true), bestDigitLogprobs: [{ '2': -0.4, '1': -1.5 }] }));
    const policy = createLlmPolicy(createOpenAiChatModel(provider()), { logitMode: 'auto' });
    const out = await policy.propose(input());
    expect(out.logitSource).toBe('logprobs');
    // Option 3 is absent from top_logprobs. Listed: e^−0.4 + e^−1.5 = 0.8935, so the residual
    // R = 0.1065 is below p_min = e^−1.5 = 0.2231; one option missing: floor = log(R / 2).
    const floor = Math.log((1 - Math.exp(-0.4) - Math.exp(-1.5)) / 2);
    expect(out.candidates.map((c) => c.logit).slice(0, 2)).toEqual([-1.5, -0.4]);
    expect(out.candidates[2]?.logit).toBeCloseTo(floor, 12);
    expect(floor).toBeCloseTo(Math.log(0.053275), 4);
    expect(out.notes.some((n) => n.includes('floor'))).toBe(true);
  });

  it('drops actions that do not parse or whose ref is not on the page, with notes', async () => {
    server.respond(() => ({
      content: answer([['click([99])', 50], ['click([3])', 30], ['tap the button', 20]], 2),
      bestDigitLogprobs: [{ '1': -2, '2': -0.3, '3': -2.2 }],
    }));
    const policy = createLlmPolicy(createOpenAiChatModel(provider()), { logitMode: 'logprobs' });
    const out = await policy.propose(input());
    expect(out.candidates.map((c) => formatAction(c.action))).toEqual(['click([3])']);
    expect(out.candidates[0]?.logit).toBe(-0.3);
    expect(out.notes.filter((n) => n.startsWith('Option 1 dropped') || n.startsWith('Option 3 dropped'))).toHaveLength(2);
  });
});

describe('llm policy, verbalized confidences', () => {
  it('turns 0–100 confidences into log-normalized logits and asks for no logprobs', async () => {
    server.respond(() => answer(THREE));
    const policy = createLlmPolicy(createOpenAiChatModel(provider()), { logitMode: 'verbalized' });
    const out = await policy.propose(input());
    expect(out.logitSource).toBe('verbalized');
    expect(out.candidates.map((c) => c.logit)).toEqual([Math.log(0.6), Math.log(0.3), Math.log(0.1)]);
    expect(server.requests[0]?.logprobs).toBeUndefined();
  });

  it("'auto' falls back when the provider returns no logprobs, and stops asking only after 3 answers in a row without", async () => {
    server.respond(() => ({ content: answer(THREE), noLogprobs: true }));
    const policy = createLlmPolicy(createOpenAiChatModel(provider()), { logitMode: 'auto' });
    const first = await policy.propose(input());
    expect(first.logitSource).toBe('verbalized');
    expect(first.candidates.map((c) => c.logit)).toEqual([Math.log(0.6), Math.log(0.3), Math.log(0.1)]);
    expect(first.notes.some((n) => n.includes('no token logprobs'))).toBe(true);
    // One answer without logprobs is not a session-wide downgrade: a logprob answer resets the count.
    server.respond((_b, i) => (i === 1 ? { content: answer(THREE), bestDigitLogprobs: [{ '1': -0.1, '2': -2.5, '3': -3 }] } : { content: answer(THREE), noLogprobs: true }));
    expect((await policy.propose(input())).logitSource).toBe('logprobs');
    for (let i = 0; i < 3; i++) await policy.propose(input());
    expect(server.requests.map((r) => r.logprobs)).toEqual([true, true, true, true, true]);
    const last = await policy.propose(input());
    expect(server.requests[5]?.logprobs).toBeUndefined();
    expect(last.logitSource).toBe('verbalized');
  });
});

describe('llm policy, malformed output', () => {
  it('repairs fences, prose, think blocks, single quotes and trailing commas without a second call', async () => {
    server.respond(
      () =>
        "<think>the email first</think>Sure! Here it is:\n```json\n{'thinking': 'x', 'candidates': [{option: 1, action: 'click([3])', confidence: 75, why: 'submit',}, {option: 2, action: 'click([4])', confidence: 25, why: 'reset',},], 'best': 1,}\n```\nHope that helps.",
    );
    const policy = createLlmPolicy(createOpenAiChatModel(provider()), { logitMode: 'verbalized' });
    const out = await policy.propose(input(2));
    expect(out.usage.calls).toBe(1);
    expect(out.candidates.map((c) => formatAction(c.action))).toEqual(['click([3])', 'click([4])']);
    expect(out.candidates.map((c) => c.logit)).toEqual([Math.log(0.75), Math.log(0.25)]);
    expect(out.notes).toContain('The model output was malformed JSON and was repaired.');
  });

  it('retries once with a corrective message when the answer is unusable', async () => {
    server.respond((_body, i) => (i === 0 ? 'I would click the sign in button.' : answer(THREE)));
    const policy = createLlmPolicy(createOpenAiChatModel(provider()), { logitMode: 'verbalized' });
    const out = await policy.propose(input());
    expect(out.usage.calls).toBe(2);
    expect(out.usage.completionTokens).toBeGreaterThan(0);
    expect(out.candidates).toHaveLength(3);
    const retry = server.requests[1]!;
    expect(retry.messages).toHaveLength(4);
    expect(retry.messages[2]).toEqual({ role: 'assistant', content: 'I would click the sign in button.' });
    expect(retry.messages[3]?.content).toContain('the answer contains no JSON object');
  });

  it('throws ModelOutputError when the retry is unusable too', async () => {
    server.respond(() => '{"candidates": "none"}');
    const policy = createLlmPolicy(createOpenAiChatModel(provider()), { logitMode: 'verbalized' });
    const err = await policy.propose(input()).catch((e: unknown) => e);
    expect(isModelOutputError(err)).toBe(true);
    expect((err as Error).message).toContain('candidates');
    expect(server.requests).toHaveLength(2);
    expect(describeError(err)).toMatch(/^The model's answer could not be understood, even after a repair and a retry: .*candidates.*\. Turn on JSON mode \(structured output\) for this model, choose another model, or pick the Offline provider in Settings, then Resume\.$/);
  });
});

describe('provider errors', () => {
  const kindOf = async (over: Partial<ProviderSettings>, signal?: AbortSignal) => {
    const policy = createLlmPolicy(createOpenAiChatModel(provider(over)), { logitMode: 'auto' });
    const err = await policy.propose(input(), signal).catch((e: unknown) => e);
    expect(isProviderError(err)).toBe(true);
    return err as { kind: string; status?: number };
  };

  it('times out as kind timeout', async () => {
    server.respond(() => ({ hang: true }));
    expect((await kindOf({ timeoutMs: 300 })).kind).toBe('timeout');
  });

  it('maps 429 to rate_limited, 500 to server, 401 to auth', async () => {
    server.respond(() => ({ status: 429, message: 'slow down' }));
    expect(await kindOf({})).toMatchObject({ kind: 'rate_limited', status: 429 });
    server.respond(() => ({ status: 500 }));
    expect(await kindOf({})).toMatchObject({ kind: 'server', status: 500 });
    server.respond(() => ({ status: 401, message: 'bad key' }));
    expect(await kindOf({})).toMatchObject({ kind: 'auth', status: 401 });
    // No SDK retries: exactly one request per failure.
    expect(server.requests).toHaveLength(3);
  });

  it('honours an AbortSignal', async () => {
    server.respond(() => ({ hang: true }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect((await kindOf({}, controller.signal)).kind).toBe('aborted');
  });

  it('reports a closed port as unreachable', async () => {
    expect((await kindOf({ baseUrl: 'http://127.0.0.1:9/v1' })).kind).toBe('unreachable');
  });

  it('drops response_format and retries when the server rejects it with 400', async () => {
    server.rejectResponseFormat(true);
    server.respond(() => answer(THREE));
    const model = createOpenAiChatModel(provider());
    const policy = createLlmPolicy(model, { logitMode: 'logprobs' });
    const out = await policy.propose(input());
    expect(out.candidates).toHaveLength(3);
    expect(server.requests.map((r) => r.response_format)).toEqual([{ type: 'json_object' }, undefined]);
    await policy.propose(input());
    expect(server.requests).toHaveLength(3);
    expect(server.requests[2]?.response_format).toBeUndefined();
  });
});

describe('testProvider', () => {
  it('reports model, logprob support and latency', async () => {
    server.respond(() => 'ready');
    const ok = await testProvider(provider());
    expect(ok).toMatchObject({ ok: true, model: 'test-model', logprobs: true });
    expect(ok.latencyMs).toBeGreaterThanOrEqual(0);
    server.respond(() => ({ content: 'ready', noLogprobs: true }));
    expect(await testProvider(provider())).toMatchObject({ ok: true, logprobs: false });
    server.respond(() => ({ status: 401 }));
    const bad = await testProvider(provider());
    expect(bad.ok).toBe(false);
    expect(bad.message).toContain('API key');
  });
});
