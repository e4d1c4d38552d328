import { describe, expect, it } from 'vitest';
import { classifyHttpFailure } from '../../src/core/llm/provider-errors.ts';
import { completionReserve, measuredCharsPerToken, observationBudget } from '../../src/core/llm/context-budget.ts';

const SENT = ['model', 'messages', 'temperature', 'max_tokens', 'logprobs', 'top_logprobs', 'response_format'];
const classify = (status: number, body: unknown) =>
  classifyHttpFailure({ status, body: typeof body === 'string' ? body : JSON.stringify(body), sentParams: SENT, origin: 'chrome-extension://abc' });

describe('classifyHttpFailure', () => {
  it('unsupported parameters: by code and param, by text, and the replacement OpenAI names', () => {
    const maxTokens = classify(400, { error: { message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", type: 'invalid_request_error', param: 'max_tokens', code: 'unsupported_parameter' } });
    expect(maxTokens.kind).toBe('unsupported_parameter');
    expect(maxTokens.detail).toEqual({ param: 'max_tokens', replacement: 'max_completion_tokens' });
    // LM Studio's bare string body names response_format.type.
    expect(classify(400, { error: "'response_format.type' must be 'json_schema' or 'text'" }).detail).toEqual({ param: 'response_format' });
    // top_logprobs named in text only (no param field), longest name first.
    expect(classify(400, { error: { message: 'top_logprobs is not supported by this backend' } }).detail).toEqual({ param: 'top_logprobs' });
  });

  it('a 400 that does not say "unsupported" is a bad request, even when it names a parameter', () => {
    const jsonWord = classify(400, { error: { message: "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.", type: 'invalid_request_error', param: 'messages', code: null } });
    expect(jsonWord.kind).toBe('bad_request');
    expect(classify(400, { error: { message: 'temperature must be at most 2', param: 'temperature' } }).kind).toBe('bad_request');
    // Unsupported, but of a parameter the adapter cannot drop: it fails the call as a bad request.
    expect(classify(400, { error: { message: 'Unsupported value: messages[0].role does not support system', param: 'messages' } }).detail).toEqual({ param: 'messages' });
  });

  it('context length from every server, with the numbers it gives', () => {
    expect(classify(400, { error: { message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages.", code: 'context_length_exceeded', param: 'messages' } }).detail)
      .toEqual({ contextTokens: 8192, promptTokens: 9000 });
    expect(classify(400, { error: { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error', n_prompt_tokens: 14429, n_ctx: 8192 } }).detail)
      .toEqual({ contextTokens: 8192, promptTokens: 14429 });
    // llama.cpp before the typed error used HTTP 500.
    expect(classify(500, { error: { code: 500, message: 'the request exceeds the available context size. try increasing the context size or enable context shift' } }).kind).toBe('context_length');
    expect(classify(400, { error: 'Trying to keep the first 6547 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough.' }).detail)
      .toEqual({ contextTokens: 4096, promptTokens: 6547 });
    expect(classify(400, { error: { message: "You passed 1015 input tokens and requested 10 output tokens. However, the model's context length is only 1024 tokens, resulting in a maximum input length of 1014 tokens.", type: 'BadRequestError', param: 'input_tokens', code: 400 } }).detail)
      .toEqual({ contextTokens: 1024, promptTokens: 1015 });
    // vLLM's older top-level body.
    expect(classify(400, { object: 'error', message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (3800 in the messages, 1200 in the completion).", type: 'BadRequestError', param: null, code: 400 }).detail)
      .toEqual({ contextTokens: 4096, promptTokens: 3800 });
    expect(classify(400, { error: { message: "This endpoint's maximum context length is 8192 tokens. However, you requested about 9500 tokens (8300 of text input, 1200 in the output).", code: 400 } }).detail)
      .toEqual({ contextTokens: 8192, promptTokens: 8300 });
  });

  it("Ollama's bare 403 names the extension origin; a 403 with a body is an auth refusal", () => {
    const forbidden = classify(403, '');
    expect(forbidden.kind).toBe('origin_forbidden');
    expect(forbidden.message).toContain('OLLAMA_ORIGINS=chrome-extension://abc');
    expect(classify(403, { error: { code: 403, message: 'Your input was flagged' } }).kind).toBe('auth');
  });

  it('missing models, and the status fallbacks', () => {
    expect(classify(404, { error: { message: 'model "llama3" not found, try pulling it first', type: 'api_error' } }).kind).toBe('model_not_found');
    expect(classify(400, { error: { message: 'openai/gpt-9 is not a valid model ID', code: 400 } }).kind).toBe('model_not_found');
    expect(classify(429, { error: { message: 'slow down' } }).kind).toBe('rate_limited');
    expect(classify(502, 'Bad Gateway')).toMatchObject({ kind: 'server', message: 'Bad Gateway' });
  });
});

describe('context budget (hand-derived)', () => {
  it('reserves at most a quarter of the window for the answer', () => {
    expect(completionReserve(2048, 1200)).toBe(512);
    expect(completionReserve(128_000, 1200)).toBe(1200);
  });

  it('budget = ⌊room · chars/token⌋ − fixed chars, room = ⌊(window − reserve) · 0.9⌋', () => {
    // reserve 512, room ⌊1536 · 0.9⌋ = 1382 tokens; the prompt, 10 000 chars / 4 = 2500 tokens, does not fit.
    // budget = 1382 · 4 − (10 000 − 8 000) = 5528 − 2000 = 3528 chars for the listing.
    expect(observationBudget({ promptChars: 10_000, observationChars: 8_000 }, 2048, 1200, 4)).toBe(3528);
    // 5 000 chars = 1250 tokens fit in 1382: no shrink.
    expect(observationBudget({ promptChars: 5_000, observationChars: 3_000 }, 2048, 1200, 4)).toBeNull();
  });

  it('measures chars per token from a server count, keeping the previous ratio without one', () => {
    expect(measuredCharsPerToken(9000, 3000, 4)).toBe(3);
    expect(measuredCharsPerToken(9000, 0, 4)).toBe(4);
  });
});
