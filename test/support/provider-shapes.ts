/**
 * How each OpenAI-compatible server behaves at the edges Apprentice meets:
 * which parameters it refuses and with what body, whether it returns token
 * logprobs (per model on OpenRouter), what it does with a prompt longer than
 * its context window, how it says a model is missing, and (Ollama) which
 * Origins it refuses. Wire formats follow each project's documentation and
 * the bodies users have reported in the projects' issue trackers (facts
 * only). Test-only: the local test server applies one shape per instance.
 */

export type ShapeName = 'openai' | 'openrouter' | 'ollama' | 'lmstudio' | 'vllm' | 'llamacpp';

/** An HTTP error: status and body ('' for no body at all). */
export interface ShapedError {
  status: number;
  body: unknown;
}

export interface ShapedRequest {
  body: Record<string, unknown> & { model?: string };
  /** The Origin header, if the client sent one. */
  origin: string | undefined;
}

export interface ProviderShape {
  name: ShapeName;
  /** What GET /v1/models lists. */
  models: string[];
  /** The context window the server runs with, in tokens. */
  contextTokens: number;
  /** A prompt over the window: refused with an error, or cut silently (Ollama keeps the end). */
  overflow: 'refuse' | 'truncate';
  /** Whether max_tokens is counted against the window before generating (vLLM, OpenAI, OpenRouter). */
  countsCompletion: boolean;
  /** An error the server returns for this request before generating, or null. */
  refuse(request: ShapedRequest): ShapedError | null;
  /** The server's reply to a prompt of `promptTokens` that does not fit. */
  overflowError(promptTokens: number, completionTokens: number, contextTokens: number): ShapedError;
  /** Whether token logprobs come back for this request. */
  returnsLogprobs(body: ShapedRequest['body']): boolean;
  /** The body of a generic failure with this message, in the provider's error shape. */
  errorBody(status: number, message: string): unknown;
}

const openAiError = (message: string, type: string, param: string | null, code: string | null) => ({ error: { message, type, param, code } });

/** Reasoning models (o-series, gpt-5 family) refuse sampling parameters and logprobs. */
const isReasoningModel = (model: string | undefined): boolean => /^(o\d|gpt-5)/.test(model ?? '');

function modelMissing(shape: { models: string[] }, model: string | undefined, error: (model: string) => ShapedError): ShapedError | null {
  return shape.models.includes(model ?? '') ? null : error(model ?? '');
}

export interface ShapeOptions {
  contextTokens?: number;
  /** Ollama: values of OLLAMA_ORIGINS beyond the built-in local ones. */
  allowedOrigins?: string[];
}

export function openAiShape(options: ShapeOptions = {}): ProviderShape {
  const models = ['gpt-4o-mini', 'o3-mini', 'gpt-5-mini'];
  return {
    name: 'openai',
    models,
    contextTokens: options.contextTokens ?? 128_000,
    overflow: 'refuse',
    countsCompletion: true,
    refuse: ({ body }) => {
      const missing = modelMissing({ models }, body.model, (m) => ({
        status: 404,
        body: openAiError(`The model \`${m}\` does not exist or you do not have access to it.`, 'invalid_request_error', null, 'model_not_found'),
      }));
      if (missing) return missing;
      if (!isReasoningModel(body.model)) return null;
      // One refusal per request, in the order the API validates them.
      if (body['max_tokens'] !== undefined) {
        return {
          status: 400,
          body: openAiError("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", 'invalid_request_error', 'max_tokens', 'unsupported_parameter'),
        };
      }
      if (body['temperature'] !== undefined && body['temperature'] !== 1) {
        return {
          status: 400,
          body: openAiError(`Unsupported value: 'temperature' does not support ${String(body['temperature'])} with this model. Only the default (1) value is supported.`, 'invalid_request_error', 'temperature', 'unsupported_value'),
        };
      }
      if (body['logprobs'] !== undefined || body['top_logprobs'] !== undefined) {
        return {
          status: 400,
          body: openAiError("Unsupported parameter: 'logprobs' is not supported with this model.", 'invalid_request_error', 'logprobs', 'unsupported_parameter'),
        };
      }
      return null;
    },
    overflowError: (prompt, _completion, ctx) => ({
      status: 400,
      body: openAiError(
        `This model's maximum context length is ${ctx} tokens. However, your messages resulted in ${prompt} tokens. Please reduce the length of the messages.`,
        'invalid_request_error', 'messages', 'context_length_exceeded',
      ),
    }),
    returnsLogprobs: (body) => body['logprobs'] === true,
    errorBody: (status, message) => openAiError(message, status >= 500 ? 'server_error' : 'invalid_request_error', null, null),
  };
}

/** OpenRouter passes requests through; logprobs come back only from models whose endpoints support them. */
export function openRouterShape(options: ShapeOptions = {}): ProviderShape {
  const withLogprobs = new Set(['openai/gpt-4o-mini']);
  const models = ['openai/gpt-4o-mini', 'meta-llama/llama-3.1-405b-instruct', 'anthropic/claude-3.5-haiku'];
  return {
    name: 'openrouter',
    models,
    contextTokens: options.contextTokens ?? 128_000,
    overflow: 'refuse',
    countsCompletion: true,
    refuse: ({ body }) =>
      modelMissing({ models }, body.model, (m) => ({ status: 400, body: { error: { message: `${m} is not a valid model ID`, code: 400 } } })),
    overflowError: (prompt, completion, ctx) => ({
      status: 400,
      body: {
        error: {
          message: `This endpoint's maximum context length is ${ctx} tokens. However, you requested about ${prompt + completion} tokens (${prompt} of text input, ${completion} in the output). Please reduce the length of either one, or use the "middle-out" transform to compress your prompt automatically.`,
          code: 400,
        },
      },
    }),
    // Unsupported logprobs are ignored silently: the answer has `logprobs: null`.
    returnsLogprobs: (body) => body['logprobs'] === true && withLogprobs.has(body.model ?? ''),
    errorBody: (status, message) => ({
      error: { code: status, message: 'Provider returned error', metadata: { provider_name: 'Upstream', raw: message } },
    }),
  };
}

/** Origins Ollama allows without OLLAMA_ORIGINS: local hosts on any port. */
const OLLAMA_LOCAL = /^(https?:\/\/(localhost|127\.0\.0\.1|0\.0\.0\.0)(:\d+)?|app:\/\/.*|file:\/\/.*|tauri:\/\/.*)$/;

const originMatches = (origin: string, pattern: string): boolean =>
  new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\/]/g, '\\$&')).join('.*')}$`).test(origin);

export function ollamaShape(options: ShapeOptions = {}): ProviderShape {
  const models = ['llama3.1:8b', 'qwen2.5:7b'];
  const allowed = options.allowedOrigins ?? [];
  return {
    name: 'ollama',
    models,
    // Ollama's default num_ctx; prompts beyond it are cut without an error.
    contextTokens: options.contextTokens ?? 4096,
    overflow: 'truncate',
    countsCompletion: false,
    refuse: ({ body, origin }) => {
      if (origin !== undefined && !OLLAMA_LOCAL.test(origin) && !allowed.some((p) => originMatches(origin, p))) {
        return { status: 403, body: '' };
      }
      return modelMissing({ models }, body.model, (m) => ({
        status: 404,
        body: openAiError(`model "${m}" not found, try pulling it first`, 'api_error', null, null),
      }));
    },
    overflowError: () => {
      throw new Error('Ollama truncates; it has no overflow error');
    },
    returnsLogprobs: (body) => body['logprobs'] === true,
    errorBody: (status, message) => openAiError(message, status >= 500 ? 'api_error' : 'invalid_request_error', null, null),
  };
}

/** LM Studio: structured output only through json_schema, no logprobs, the loaded model answers whatever the name. */
export function lmStudioShape(options: ShapeOptions = {}): ProviderShape {
  return {
    name: 'lmstudio',
    models: ['qwen2.5-7b-instruct'],
    contextTokens: options.contextTokens ?? 4096,
    overflow: 'refuse',
    countsCompletion: false,
    refuse: ({ body }) => {
      const format = body['response_format'] as { type?: string } | undefined;
      if (format && format.type !== 'json_schema' && format.type !== 'text') {
        return { status: 400, body: { error: "'response_format.type' must be 'json_schema' or 'text'" } };
      }
      return null;
    },
    overflowError: (prompt, _completion, ctx) => ({
      status: 400,
      body: {
        error: `Trying to keep the first ${prompt} tokens when context the overflows. However, the model is loaded with context length of only ${ctx} tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input`,
      },
    }),
    returnsLogprobs: () => false,
    errorBody: (_status, message) => ({ error: message }),
  };
}

export function vllmShape(options: ShapeOptions = {}): ProviderShape {
  const models = ['Qwen/Qwen2.5-7B-Instruct'];
  const bad = (message: string, param: string | null, status = 400): ShapedError => ({
    status,
    body: { error: { message, type: status === 404 ? 'NotFoundError' : 'BadRequestError', param, code: status } },
  });
  return {
    name: 'vllm',
    models,
    contextTokens: options.contextTokens ?? 32_768,
    overflow: 'refuse',
    countsCompletion: true,
    refuse: ({ body }) => {
      const missing = modelMissing({ models }, body.model, (m) => bad(`The model \`${m}\` does not exist.`, 'model', 404));
      if (missing) return missing;
      const top = body['top_logprobs'];
      if (typeof top === 'number' && top > 20) return bad(`Requested top logprobs of ${top} exceeds the maximum of 20.`, 'top_logprobs');
      return null;
    },
    overflowError: (prompt, completion, ctx) =>
      bad(
        `You passed ${prompt} input tokens and requested ${completion} output tokens. However, the model's context length is only ${ctx} tokens, resulting in a maximum input length of ${ctx - completion} tokens. Please reduce the length of the input prompt. (parameter=input_tokens, value=${prompt})`,
        'input_tokens',
      ),
    returnsLogprobs: (body) => body['logprobs'] === true,
    errorBody: (status, message) => bad(message, null, status).body,
  };
}

/** llama.cpp's llama-server: one loaded model, a fixed slot context, a typed overflow error. */
export function llamaCppShape(options: ShapeOptions = {}): ProviderShape {
  return {
    name: 'llamacpp',
    models: ['model.gguf'],
    contextTokens: options.contextTokens ?? 4096,
    overflow: 'refuse',
    countsCompletion: false,
    refuse: () => null,
    overflowError: (prompt, _completion, ctx) => ({
      status: 400,
      body: {
        error: {
          code: 400,
          message: 'the request exceeds the available context size, try increasing it',
          type: 'exceed_context_size_error',
          n_prompt_tokens: prompt,
          n_ctx: ctx,
        },
      },
    }),
    returnsLogprobs: (body) => body['logprobs'] === true,
    errorBody: (status, message) => ({ error: { code: status, message, type: status >= 500 ? 'server_error' : 'invalid_request_error' } }),
  };
}

export function providerShape(name: ShapeName, options: ShapeOptions = {}): ProviderShape {
  switch (name) {
    case 'openai': return openAiShape(options);
    case 'openrouter': return openRouterShape(options);
    case 'ollama': return ollamaShape(options);
    case 'lmstudio': return lmStudioShape(options);
    case 'vllm': return vllmShape(options);
    case 'llamacpp': return llamaCppShape(options);
  }
}
