/**
 * The ChatModel port over any OpenAI-compatible endpoint, through the
 * `openai` package. Owns the mapping of token logprobs to TokenLogprob[],
 * the graceful downgrade for servers that reject `response_format` or
 * `logprobs`, and the mapping of every failure to a ProviderError kind.
 */
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { describeError, isProviderError, ProviderError } from '../../core/errors.ts';
import type { ChatModel, ChatRequest, ChatResponse, TokenLogprob } from '../../core/ports.ts';
import type { ProviderSettings } from '../../core/settings.ts';
import type { ProviderTestResult } from '../../protocol/messages.ts';

/** Maps whatever the SDK threw to a ProviderError. */
export function toProviderError(err: unknown, signal?: AbortSignal): ProviderError {
  if (isProviderError(err)) return err;
  if (signal?.aborted || err instanceof OpenAI.APIUserAbortError || (err as { name?: unknown })?.name === 'AbortError') {
    return new ProviderError('aborted', 'The request was cancelled.', { cause: err });
  }
  if (err instanceof OpenAI.APIConnectionTimeoutError) {
    return new ProviderError('timeout', 'The provider did not answer in time.', { cause: err });
  }
  if (err instanceof OpenAI.APIConnectionError) {
    return new ProviderError('unreachable', err.message || 'Connection failed.', { cause: err });
  }
  if (err instanceof OpenAI.APIError && typeof err.status === 'number') {
    const status = err.status;
    const kind =
      status === 429 ? 'rate_limited' : status === 401 || status === 403 ? 'auth' : status >= 500 ? 'server' : 'bad_request';
    return new ProviderError(kind, err.message, { status, cause: err });
  }
  return new ProviderError('unreachable', describeError(err), { cause: err });
}

/**
 * `fetchImpl` lets the extension pass a bound `fetch` (and tests a wrapped
 * one); the SDK's own retries are off because the policy decides on retries.
 */
export function createOpenAiChatModel(provider: ProviderSettings, fetchImpl?: typeof fetch): ChatModel {
  const client = new OpenAI({
    baseURL: provider.baseUrl,
    apiKey: provider.apiKey || 'not-needed',
    maxRetries: 0,
    timeout: provider.timeoutMs,
    dangerouslyAllowBrowser: true,
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });
  // Remembered per model instance: once a server rejects a parameter, stop sending it.
  let jsonModeRejected = false;
  let logprobsRejected = false;

  async function call(request: ChatRequest, signal: AbortSignal | undefined): Promise<ChatResponse> {
    const useJson = request.json && !jsonModeRejected;
    const useLogprobs = request.logprobs && !logprobsRejected;
    const params: ChatCompletionCreateParamsNonStreaming = {
      model: provider.model,
      messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
      temperature: request.temperature,
      max_tokens: request.maxTokens,
      ...(useLogprobs ? { logprobs: true, top_logprobs: Math.max(0, Math.min(20, request.topLogprobs)) } : {}),
      ...(useJson ? { response_format: { type: 'json_object' as const } } : {}),
    };
    try {
      const completion = await client.chat.completions.create(params, signal ? { signal } : {});
      const choice = completion.choices[0];
      if (!choice) throw new ProviderError('server', 'The provider returned no choices.');
      const content = choice.logprobs?.content;
      const tokens: TokenLogprob[] | null =
        useLogprobs && Array.isArray(content) && content.length > 0
          ? content.map((t) => ({
              token: t.token,
              logprob: t.logprob,
              top: (t.top_logprobs ?? []).map((a) => ({ token: a.token, logprob: a.logprob })),
            }))
          : null;
      return {
        text: choice.message?.content ?? '',
        tokens,
        usage: {
          promptTokens: completion.usage?.prompt_tokens ?? 0,
          completionTokens: completion.usage?.completion_tokens ?? 0,
        },
        model: completion.model || provider.model,
      };
    } catch (err) {
      const mapped = toProviderError(err, signal);
      // Some local servers reject `response_format` or `logprobs` with 400: drop the parameter and retry once.
      if (mapped.kind === 'bad_request' && mapped.status === 400) {
        if (useJson) {
          jsonModeRejected = true;
          return call(request, signal);
        }
        if (useLogprobs) {
          logprobsRejected = true;
          return call(request, signal);
        }
      }
      throw mapped;
    }
  }

  return {
    chat: (request, signal) => {
      if (signal?.aborted) return Promise.reject(new ProviderError('aborted', 'The request was cancelled.'));
      return call(request, signal);
    },
  };
}

/** A tiny chat call that tells the person whether the provider works and returns token logprobs. */
export async function testProvider(provider: ProviderSettings, fetchImpl?: typeof fetch): Promise<ProviderTestResult> {
  if (provider.preset === 'offline') {
    return { ok: true, model: 'offline', logprobs: false, latencyMs: 0, message: 'The built-in offline policy needs no provider.' };
  }
  if (!provider.baseUrl) {
    return { ok: false, model: provider.model, logprobs: false, latencyMs: 0, message: 'No base URL is set.' };
  }
  const model = createOpenAiChatModel(provider, fetchImpl);
  const started = Date.now();
  try {
    const response = await model.chat({
      messages: [{ role: 'user', content: 'Reply with the single word: ready' }],
      temperature: 0,
      maxTokens: 5,
      logprobs: true,
      topLogprobs: 3,
      json: false,
    });
    const latencyMs = Date.now() - started;
    const logprobs = response.tokens !== null && response.tokens.length > 0;
    return {
      ok: true,
      model: response.model,
      logprobs,
      latencyMs,
      message: logprobs
        ? `Connected to ${response.model}; token logprobs are available, so candidate logits come from them.`
        : `Connected to ${response.model}; no token logprobs came back, so candidate logits will come from verbalized confidences.`,
    };
  } catch (err) {
    return { ok: false, model: provider.model, logprobs: false, latencyMs: Date.now() - started, message: describeError(err) };
  }
}
