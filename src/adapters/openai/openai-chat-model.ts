/**
 * The ChatModel port over any OpenAI-compatible endpoint, through the
 * `openai` package. Owns the mapping of token logprobs to TokenLogprob[],
 * the per-session memory of parameters the server said it does not support,
 * and the mapping of every failure to a ProviderError kind.
 *
 * Downgrades are earned, never guessed: a parameter is dropped for the rest
 * of the session only when a 400 names it as unsupported (see
 * core/llm/provider-errors.ts). Any other 400 fails that call alone.
 */
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { describeError, isProviderError, ProviderError } from '../../core/errors.ts';
import { classifyHttpFailure } from '../../core/llm/provider-errors.ts';
import { extractModelJson } from '../../core/llm/parse-model-json.ts';
import { presetInfo } from '../../core/llm/provider-presets.ts';
import type { ChatModel, ChatRequest, ChatResponse, TokenLogprob } from '../../core/ports.ts';
import type { ProviderSettings } from '../../core/settings.ts';
import type { ProviderTestResult } from '../../protocol/messages.ts';

/** Maps whatever the SDK threw (other than an HTTP status) to a ProviderError. */
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
    return classifyHttpFailure({ status: err.status, body: JSON.stringify({ error: err.error ?? { message: err.message } }), sentParams: [] });
  }
  return new ProviderError('unreachable', describeError(err), { cause: err });
}

export interface OpenAiChatModelOptions {
  fetchImpl?: typeof fetch;
  /** The extension's origin (chrome-extension://<id>), named in the help for Ollama's 403. */
  origin?: string;
}

/** Parameters the adapter can stop sending when a server refuses them. */
type Droppable = 'temperature' | 'logprobs' | 'response_format' | 'max_tokens';

/** An SDK client whose fetch keeps the raw body of a failed response, whatever its shape. */
function clientFor(provider: ProviderSettings, options: OpenAiChatModelOptions) {
  const base = options.fetchImpl ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const seen: { failure: { status: number; body: string } | null } = { failure: null };
  const capture = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const res = await base(input, init);
    if (!res.ok) seen.failure = { status: res.status, body: await res.clone().text().catch(() => '') };
    return res;
  };
  const client = new OpenAI({
    baseURL: provider.baseUrl,
    apiKey: provider.apiKey || 'not-needed',
    maxRetries: 0,
    timeout: provider.timeoutMs,
    dangerouslyAllowBrowser: true,
    fetch: capture,
  });
  return { client, seen };
}

/** The model ids the server lists at GET /models, or null when it lists none or fails. */
export async function listModels(provider: ProviderSettings, options: OpenAiChatModelOptions = {}): Promise<string[] | null> {
  try {
    const { client } = clientFor({ ...provider, timeoutMs: Math.min(provider.timeoutMs, 10_000) }, options);
    const page = await client.models.list();
    const ids = page.data.map((m) => m.id).filter((id) => typeof id === 'string' && id !== '');
    return ids.length ? ids : null;
  } catch {
    return null;
  }
}

/**
 * `fetchImpl` lets the extension pass a bound `fetch` (and tests a wrapped
 * one); the SDK's own retries are off because the policy decides on retries.
 */
export function createOpenAiChatModel(provider: ProviderSettings, opts: OpenAiChatModelOptions | typeof fetch = {}): ChatModel {
  const options: OpenAiChatModelOptions = typeof opts === 'function' ? { fetchImpl: opts } : opts;
  // Remembered per model instance: what the server said it does not support.
  const dropped = new Set<Droppable>();
  let tokenParam: 'max_tokens' | 'max_completion_tokens' = 'max_tokens';

  const paramsFor = (request: ChatRequest): ChatCompletionCreateParamsNonStreaming => {
    const useLogprobs = request.logprobs && !dropped.has('logprobs');
    return {
      model: provider.model,
      messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
      ...(dropped.has('temperature') ? {} : { temperature: request.temperature }),
      ...(dropped.has('max_tokens') ? {} : { [tokenParam]: request.maxTokens }),
      ...(useLogprobs ? { logprobs: true, top_logprobs: Math.max(0, Math.min(20, request.topLogprobs)) } : {}),
      ...(request.json && !dropped.has('response_format') ? { response_format: { type: 'json_object' as const } } : {}),
    };
  };

  /** Applies an 'unsupported parameter' verdict; false when nothing could change. */
  const stopSending = (param: string, replacement: string | undefined, notes: string[]): boolean => {
    const said = (what: string) => notes.push(`The provider does not support ${what} for ${provider.model}; it is no longer sent.`);
    if (param === 'max_tokens' && replacement === 'max_completion_tokens' && tokenParam === 'max_tokens') {
      tokenParam = 'max_completion_tokens';
      notes.push(`The provider wants max_completion_tokens instead of max_tokens for ${provider.model}; switched.`);
      return true;
    }
    if ((param === 'max_tokens' || param === 'max_completion_tokens') && !dropped.has('max_tokens')) {
      if (param === 'max_completion_tokens' && tokenParam === 'max_completion_tokens' && replacement === 'max_tokens') {
        tokenParam = 'max_tokens';
        return true;
      }
      dropped.add('max_tokens');
      said('a completion-length limit');
      return true;
    }
    const key: Droppable | null =
      param === 'temperature' ? 'temperature' : param === 'logprobs' || param === 'top_logprobs' ? 'logprobs' : param === 'response_format' ? 'response_format' : null;
    if (!key || dropped.has(key)) return false;
    dropped.add(key);
    said(key === 'logprobs' ? 'token logprobs' : key === 'response_format' ? 'JSON mode (response_format)' : 'temperature');
    return true;
  };

  async function call(request: ChatRequest, signal: AbortSignal | undefined): Promise<ChatResponse> {
    const notes: string[] = [];
    // Each retry drops one more parameter, so the loop is bounded by their number.
    for (let attempt = 0; attempt < 6; attempt++) {
      const params = paramsFor(request);
      const { client, seen } = clientFor(provider, options);
      try {
        const completion = await client.chat.completions.create(params, signal ? { signal } : {});
        const choice = completion.choices[0];
        if (!choice) throw new ProviderError('server', 'The provider returned no choices.');
        const content = choice.logprobs?.content;
        const tokens: TokenLogprob[] | null =
          params.logprobs && Array.isArray(content) && content.length > 0
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
          ...(notes.length ? { notes } : {}),
        };
      } catch (err) {
        if (isProviderError(err)) throw err;
        if (signal?.aborted || !seen.failure) throw toProviderError(err, signal);
        const failure = classifyHttpFailure({
          ...seen.failure,
          sentParams: Object.keys(params),
          ...(options.origin ? { origin: options.origin } : {}),
        });
        if (failure.kind === 'unsupported_parameter' && failure.detail.param) {
          if (stopSending(failure.detail.param, failure.detail.replacement, notes)) continue;
          throw new ProviderError('bad_request', failure.message, { status: seen.failure.status, cause: err });
        }
        if (failure.kind === 'model_not_found') {
          const models = await listModels(provider, options);
          throw new ProviderError(
            'model_not_found',
            `${failure.message.replace(/[.\s]*$/, '.')}${models ? ` The server lists: ${models.slice(0, 20).join(', ')}.` : ''}`,
            { status: seen.failure.status, cause: err, detail: models ? { models } : {} },
          );
        }
        throw failure;
      }
    }
    throw new ProviderError('bad_request', 'The provider kept refusing the request parameters.');
  }

  return {
    chat: (request, signal) => {
      if (signal?.aborted) return Promise.reject(new ProviderError('aborted', 'The request was cancelled.'));
      return call(request, signal);
    },
  };
}

/** Advice for the walls people hit first, keyed by failure kind. */
function helpFor(err: unknown, provider: ProviderSettings): string {
  if (!isProviderError(err)) return '';
  // A 404 at a base URL without /v1 is the path, not the model: say what to type (issue 31).
  const base = provider.baseUrl.replace(/\/+$/, '');
  if (err.kind === 'not_found' && !/\/v1$/.test(base)) return ` The server answered 404 (not found): OpenAI-compatible servers usually answer under /v1. Try the base URL ${base}/v1.`;
  switch (err.kind) {
    case 'origin_forbidden':
      return ' Then press Test connection again.';
    case 'model_not_found':
      return err.detail.models?.length ? ' Pick one of the listed models in the Model field.' : ` Check the model name; for Ollama, run: ollama pull ${provider.model}`;
    case 'context_length':
      return ' Apprentice shrinks the page listing to fit; a larger context window (Ollama num_ctx, llama.cpp -c, LM Studio context length) keeps more of the page.';
    case 'unreachable':
      return presetInfo(provider.preset).local ? ' Is the local server running at that address?' : '';
    default:
      return '';
  }
}

/**
 * Every proposal is a JSON answer: one tiny JSON question says whether this model gives one (issue 31: a model
 * that answers in prose passed the test, then failed every step). Null when it does; else what to do, in words.
 */
async function jsonProbe(model: ChatModel): Promise<string | null> {
  const remedy = 'Apprentice needs JSON answers, so each step would fail: turn on JSON mode (structured output) for this model on the server, or choose another model, such as an instruct model; the Offline provider needs no model.';
  try {
    const answer = await model.chat({
      messages: [{ role: 'user', content: 'Answer with this JSON object and nothing else: {"ready": true}' }],
      temperature: 0, maxTokens: 20, logprobs: false, topLogprobs: 0, json: true,
    });
    const parsed = extractModelJson(answer.text);
    if (parsed.ok && typeof parsed.value === 'object' && parsed.value !== null && !Array.isArray(parsed.value)) return null;
    const said = answer.text.replace(/\s+/g, ' ').trim();
    return `Asked for a small JSON object, it answered ${said === '' ? 'nothing' : `“${said.length > 60 ? `${said.slice(0, 60)}…` : said}”`}. ${remedy}`;
  } catch (err) {
    return `Asked for a small JSON object, it failed: ${describeError(err)} ${remedy}`;
  }
}

/** A tiny chat call that tells the person whether the provider works and returns token logprobs, then one JSON answer. */
export async function testProvider(provider: ProviderSettings, opts: OpenAiChatModelOptions | typeof fetch = {}): Promise<ProviderTestResult> {
  const options: OpenAiChatModelOptions = typeof opts === 'function' ? { fetchImpl: opts } : opts;
  if (provider.preset === 'offline') {
    return { ok: true, model: 'offline', logprobs: false, latencyMs: 0, message: 'The built-in offline policy needs no provider.' };
  }
  if (!provider.baseUrl) {
    return { ok: false, model: provider.model, logprobs: false, latencyMs: 0, message: 'No base URL is set.' };
  }
  const model = createOpenAiChatModel(provider, options);
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
    const adjusted = response.notes?.length ? ` ${response.notes.join(' ')}` : '';
    const json = await jsonProbe(model);
    return {
      ok: true,
      model: response.model,
      logprobs,
      latencyMs,
      json: json === null,
      message:
        (logprobs
          ? `Connected to ${response.model}; token logprobs are available, so candidate logits come from them.`
          : `Connected to ${response.model}; no token logprobs came back, so candidate logits will come from verbalized confidences.`) + adjusted
        + (json === null ? '' : ` ${json}`),
    };
  } catch (err) {
    const models = isProviderError(err) ? err.detail.models : undefined;
    return {
      ok: false,
      model: provider.model,
      logprobs: false,
      latencyMs: Date.now() - started,
      message: describeError(err) + helpFor(err, provider),
      ...(isProviderError(err) ? { kind: err.kind } : {}),
      ...(models?.length ? { models } : {}),
    };
  }
}
