/**
 * The model path against each provider's documented behaviour (the shapes in
 * test/support/provider-shapes.ts): which logit mode is detected, how each
 * error is classified, that a parameter is dropped only when the server says
 * it is unsupported, that one bad call changes nothing for the next, and that
 * a context overflow recovers by shrinking the page listing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiChatModel, testProvider } from '../../src/adapters/openai/openai-chat-model.ts';
import { describeError, isProviderError, type ProviderError } from '../../src/core/errors.ts';
import { createLlmPolicy, type LlmPolicyOptions } from '../../src/core/policy/llm-policy.ts';
import type { ProviderSettings } from '../../src/core/settings.ts';
import { candidateAnswer, longPage, policyInput, THREE } from '../support/llm-fixtures.ts';
import { countPromptTokens, startOpenAiTestServer, type OpenAiTestServer, type Responder } from '../support/openai-test-server.ts';
import { providerShape, type ShapeName, type ShapeOptions } from '../support/provider-shapes.ts';

const servers: OpenAiTestServer[] = [];
async function serve(name: ShapeName, options: ShapeOptions = {}, responder: Responder = () => candidateAnswer(THREE)) {
  const server = await startOpenAiTestServer({ shape: providerShape(name, options) });
  server.respond(responder);
  servers.push(server);
  return server;
}
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const settings = (server: OpenAiTestServer, model: string, over: Partial<ProviderSettings> = {}): ProviderSettings => ({
  preset: 'custom',
  baseUrl: server.baseUrl,
  apiKey: 'sk-test',
  model,
  logitMode: 'auto',
  timeoutMs: 5000,
  ...over,
});

/** Sends the Origin header a Chrome extension's service worker sends. */
const fromExtension = (origin: string): typeof fetch => (input, init) =>
  fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers).entries()), origin } });

const policyFor = (server: OpenAiTestServer, model: string, options: Partial<LlmPolicyOptions> = {}, over: Partial<ProviderSettings> = {}) =>
  createLlmPolicy(createOpenAiChatModel(settings(server, model, over)), { logitMode: 'auto', ...options });

const failureOf = async (promise: Promise<unknown>): Promise<ProviderError> => {
  const err = await promise.then(() => null, (e: unknown) => e);
  expect(isProviderError(err)).toBe(true);
  return err as ProviderError;
};

describe('OpenAI chat completions', () => {
  let server: OpenAiTestServer;
  beforeAll(async () => {
    server = await serve('openai');
  });

  it('gpt-4o-mini: token logprobs, every parameter sent', async () => {
    const out = await policyFor(server, 'gpt-4o-mini').propose(policyInput());
    expect(out.logitSource).toBe('logprobs');
    const req = server.requests.at(-1)!;
    expect(req).toMatchObject({ temperature: 0.8, max_tokens: 1200, logprobs: true, response_format: { type: 'json_object' } });
  });

  it('a reasoning model: max_completion_tokens, no temperature, no logprobs — learned from its 400s, kept for the session', async () => {
    server.requests.length = 0;
    const policy = policyFor(server, 'o3-mini');
    const out = await policy.propose(policyInput());
    expect(out.logitSource).toBe('verbalized');
    // Three refusals, each naming one parameter as unsupported, then the answer.
    expect(server.requests.map((r) => Object.keys(r).filter((k) => k !== 'model' && k !== 'messages').sort())).toEqual([
      ['logprobs', 'max_tokens', 'response_format', 'temperature', 'top_logprobs'],
      ['logprobs', 'max_completion_tokens', 'response_format', 'temperature', 'top_logprobs'],
      ['logprobs', 'max_completion_tokens', 'response_format', 'top_logprobs'],
      ['max_completion_tokens', 'response_format'],
    ]);
    expect(out.notes.some((n) => n.includes('max_completion_tokens instead of max_tokens'))).toBe(true);
    expect(out.notes.some((n) => n.includes('does not support temperature'))).toBe(true);
    expect(out.notes.some((n) => n.includes('does not support token logprobs'))).toBe(true);
    // The next step sends the learned form at once: one request.
    await policy.propose(policyInput());
    expect(server.requests).toHaveLength(5);
    expect(server.requests[4]).toMatchObject({ max_completion_tokens: 1200, response_format: { type: 'json_object' } });
    expect(server.requests[4]?.temperature).toBeUndefined();
  });

  it('a 400 that names response_format without calling it unsupported fails that call only', async () => {
    server.requests.length = 0;
    const policy = policyFor(server, 'gpt-4o-mini');
    // OpenAI's JSON-mode rule: the messages must mention JSON. Its param is `messages`.
    server.respond((_b, i) =>
      i === 0
        ? { status: 400, message: "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.", param: 'messages' }
        : candidateAnswer(THREE),
    );
    const err = await failureOf(policy.propose(policyInput()));
    expect(err.kind).toBe('bad_request');
    expect(server.requests).toHaveLength(1);
    const next = await policy.propose(policyInput());
    expect(next.logitSource).toBe('logprobs');
    expect(server.requests[1]).toMatchObject({ response_format: { type: 'json_object' }, logprobs: true });
    server.respond(() => candidateAnswer(THREE));
  });

  it('a missing model lists the server models; a context overflow shrinks the page and retries', async () => {
    const missing = await failureOf(policyFor(server, 'gpt-9').propose(policyInput()));
    expect(missing.kind).toBe('model_not_found');
    expect(missing.detail.models).toEqual(['gpt-4o-mini', 'o3-mini', 'gpt-5-mini']);
    expect(describeError(missing)).toContain('The server lists: gpt-4o-mini, o3-mini, gpt-5-mini.');

    const small = await serve('openai', { contextTokens: 3000 });
    const out = await policyFor(small, 'gpt-4o-mini').propose(policyInput(3, longPage(200)));
    expect(out.candidates).toHaveLength(3);
    expect(small.requests).toHaveLength(2);
    expect(out.notes.some((n) => /exceeds the model's context window of 3000 tokens\. The page listing was shrunk from \d+ to \d+ characters/.test(n))).toBe(true);
    // The retry fits: prompt plus the completion reserve (¼ of the window) within 3000.
    const retry = small.requests[1]!;
    expect(retry.max_tokens).toBe(750);
    expect(countPromptTokens(retry.messages) + 750).toBeLessThanOrEqual(3000);
  });
});

describe('OpenRouter', () => {
  it('passes through: logprobs from models that have them, verbalized from the others, no error either way', async () => {
    const server = await serve('openrouter');
    expect((await policyFor(server, 'openai/gpt-4o-mini').propose(policyInput())).logitSource).toBe('logprobs');
    const llama = policyFor(server, 'meta-llama/llama-3.1-405b-instruct');
    const first = await llama.propose(policyInput());
    expect(first.logitSource).toBe('verbalized');
    expect(server.requests.at(-1)?.logprobs).toBe(true);
    // 'auto' keeps asking until 3 answers in a row came without logprobs, then stops.
    await llama.propose(policyInput());
    await llama.propose(policyInput());
    expect(server.requests.at(-1)?.logprobs).toBe(true);
    await llama.propose(policyInput());
    expect(server.requests.at(-1)?.logprobs).toBeUndefined();
  });

  it('an upstream provider error fails one call; the next still asks for JSON and logprobs', async () => {
    const server = await serve('openrouter', {}, (_b, i) => (i === 0 ? { status: 400, message: 'upstream rejected the request: invalid content' } : candidateAnswer(THREE)));
    const policy = policyFor(server, 'openai/gpt-4o-mini');
    const err = await failureOf(policy.propose(policyInput()));
    expect(err).toMatchObject({ kind: 'bad_request', status: 400 });
    // The upstream text (metadata.raw) is part of the message.
    expect(err.message).toContain('upstream rejected the request');
    const next = await policy.propose(policyInput());
    expect(next.logitSource).toBe('logprobs');
    expect(server.requests[1]).toMatchObject({ logprobs: true, response_format: { type: 'json_object' } });
  });

  it('an unknown model id and a context overflow', async () => {
    const server = await serve('openrouter', { contextTokens: 3000 });
    const missing = await failureOf(policyFor(server, 'openai/gpt-9').propose(policyInput()));
    expect(missing.kind).toBe('model_not_found');
    expect(missing.detail.models).toContain('openai/gpt-4o-mini');
    const out = await policyFor(server, 'openai/gpt-4o-mini').propose(policyInput(3, longPage(200)));
    expect(out.candidates).toHaveLength(3);
    expect(out.notes.some((n) => n.includes('context window of 3000 tokens'))).toBe(true);
  });
});

describe('Ollama (OpenAI-compatible endpoint)', () => {
  it("refuses an extension's Origin with a bare 403: the help names the exact OLLAMA_ORIGINS value", async () => {
    const server = await serve('ollama');
    const origin = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';
    const model = createOpenAiChatModel(settings(server, 'llama3.1:8b'), { fetchImpl: fromExtension(origin), origin });
    const err = await failureOf(createLlmPolicy(model, { logitMode: 'auto' }).propose(policyInput()));
    expect(err.kind).toBe('origin_forbidden');
    expect(err.status).toBe(403);
    expect(describeError(err)).toContain(`OLLAMA_ORIGINS=${origin}`);
    const test = await testProvider(settings(server, 'llama3.1:8b'), { fetchImpl: fromExtension(origin), origin });
    expect(test).toMatchObject({ ok: false, kind: 'origin_forbidden' });
    expect(test.message).toContain(`OLLAMA_ORIGINS=${origin}`);
  });

  it('with the origin allowed: token logprobs; a missing model lists the pulled ones', async () => {
    const origin = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';
    const server = await serve('ollama', { allowedOrigins: ['chrome-extension://*'] });
    const model = createOpenAiChatModel(settings(server, 'llama3.1:8b'), { fetchImpl: fromExtension(origin), origin });
    expect((await createLlmPolicy(model, { logitMode: 'auto' }).propose(policyInput())).logitSource).toBe('logprobs');
    const test = await testProvider(settings(server, 'llama3'), { fetchImpl: fromExtension(origin), origin });
    expect(test).toMatchObject({ ok: false, kind: 'model_not_found', models: ['llama3.1:8b', 'qwen2.5:7b'] });
    expect(test.message).toContain('model "llama3" not found');
  });

  it('truncates silently past its window; with the window known the page is shrunk before sending', async () => {
    const seen: boolean[] = [];
    const server = await serve('ollama', { contextTokens: 3000 }, (_b, _i, info) => {
      seen.push(info.truncated);
      return candidateAnswer(THREE);
    });
    await policyFor(server, 'llama3.1:8b').propose(policyInput(3, longPage(200)));
    expect(seen).toEqual([true]);
    const out = await policyFor(server, 'llama3.1:8b', { contextTokens: 3000 }).propose(policyInput(3, longPage(200)));
    expect(seen).toEqual([true, false]);
    expect(out.notes.some((n) => /would not fit the model's context window of 3000 tokens/.test(n))).toBe(true);
  });
});

describe('LM Studio', () => {
  it('refuses json_object (only json_schema/text): JSON mode is dropped for the session; no logprobs → verbalized', async () => {
    const server = await serve('lmstudio');
    const policy = policyFor(server, 'qwen2.5-7b-instruct');
    const out = await policy.propose(policyInput());
    expect(out.logitSource).toBe('verbalized');
    expect(server.requests.map((r) => r.response_format)).toEqual([{ type: 'json_object' }, undefined]);
    expect(out.notes.some((n) => n.includes('JSON mode'))).toBe(true);
    await policy.propose(policyInput());
    expect(server.requests).toHaveLength(3);
  });

  it('a context overflow ({"error": "<text>"}) shrinks the page and retries', async () => {
    const server = await serve('lmstudio', { contextTokens: 2500 });
    const out = await policyFor(server, 'qwen2.5-7b-instruct').propose(policyInput(3, longPage(200)));
    expect(out.candidates).toHaveLength(3);
    expect(out.notes.some((n) => n.includes('context window of 2500 tokens'))).toBe(true);
    expect(countPromptTokens(server.requests.at(-1)!.messages)).toBeLessThanOrEqual(2500);
  });
});

describe('vLLM', () => {
  it('token logprobs; the max_tokens reservation counts against the window on overflow', async () => {
    const server = await serve('vllm', { contextTokens: 3000 });
    const out = await policyFor(server, 'Qwen/Qwen2.5-7B-Instruct').propose(policyInput(3, longPage(200)));
    expect(out.logitSource).toBe('logprobs');
    const retry = server.requests.at(-1)!;
    expect(countPromptTokens(retry.messages) + Number(retry.max_tokens)).toBeLessThanOrEqual(3000);
    const missing = await failureOf(policyFor(server, 'qwen').propose(policyInput()));
    expect(missing).toMatchObject({ kind: 'model_not_found', status: 404 });
    expect(missing.detail.models).toEqual(['Qwen/Qwen2.5-7B-Instruct']);
  });
});

describe('llama.cpp server', () => {
  it('exceed_context_size_error carries n_prompt_tokens and n_ctx: one shrink fits', async () => {
    const server = await serve('llamacpp', { contextTokens: 2048 });
    const out = await policyFor(server, 'model.gguf').propose(policyInput(3, longPage(200)));
    expect(out.logitSource).toBe('logprobs');
    expect(server.requests).toHaveLength(2);
    // The retry was accepted (two requests): its prompt is within n_ctx.
    expect(countPromptTokens(server.requests[1]!.messages)).toBeLessThanOrEqual(2048);
  });

  it('a window too small for any page listing says so instead of looping', async () => {
    const server = await serve('llamacpp', { contextTokens: 600 });
    const err = await failureOf(policyFor(server, 'model.gguf').propose(policyInput(3, longPage(200))));
    expect(err.kind).toBe('context_length');
    expect(describeError(err)).toMatch(/too small even for a 200-character page listing/);
  });
});

describe('Test connection against each shape', () => {
  it.each([
    ['openai', 'gpt-4o-mini', true],
    ['openai', 'o3-mini', false],
    ['openrouter', 'openai/gpt-4o-mini', true],
    ['openrouter', 'anthropic/claude-3.5-haiku', false],
    ['ollama', 'llama3.1:8b', true],
    ['lmstudio', 'qwen2.5-7b-instruct', false],
    ['vllm', 'Qwen/Qwen2.5-7B-Instruct', true],
    ['llamacpp', 'model.gguf', true],
  ] as const)('%s %s: connects, logprobs = %s', async (name, model, logprobs) => {
    const server = await serve(name, {}, () => 'ready');
    const result = await testProvider(settings(server, model));
    expect(result).toMatchObject({ ok: true, logprobs });
  });
});
