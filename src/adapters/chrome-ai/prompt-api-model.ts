/**
 * Chrome's built-in model (the Prompt API, `LanguageModel`) as a ChatModel
 * with no key: availability and download progress, structured output through
 * `responseConstraint`, cancellation through AbortSignal, and the context
 * quota mapped to a context-length error (so the policy shrinks the page).
 * It gives no token logprobs, so candidate logits come from verbalized
 * confidences.
 *
 * Written against the published API surface only, injected as `api`, so the
 * same code runs on `globalThis.LanguageModel` and on the test fake.
 */
import { describeError, isProviderError, ProviderError } from '../../core/errors.ts';
import type { ChatMessage, ChatModel, ChatRequest, ChatResponse } from '../../core/ports.ts';
import type { ProviderTestResult } from '../../protocol/messages.ts';

export type Availability = 'unavailable' | 'downloadable' | 'downloading' | 'available';

export interface PromptMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface SessionOptions {
  initialPrompts?: PromptMessage[];
  monitor?: (monitor: EventTarget) => void;
  signal?: AbortSignal;
  temperature?: number;
  topK?: number;
  expectedInputs?: { type: 'text'; languages?: string[] }[];
  expectedOutputs?: { type: 'text'; languages?: string[] }[];
}

export interface PromptOptions {
  responseConstraint?: Record<string, unknown>;
  signal?: AbortSignal;
}

export interface LanguageModelSession {
  prompt(input: string, options?: PromptOptions): Promise<string>;
  measureInputUsage?(input: string, options?: PromptOptions): Promise<number>;
  /** Tokens used so far and the session's limit (older names; newer Chrome: contextUsage / contextWindow). */
  inputUsage?: number;
  inputQuota?: number;
  contextUsage?: number;
  contextWindow?: number;
  destroy(): void;
}

export interface LanguageModelApi {
  availability(options?: SessionOptions): Promise<Availability>;
  create(options?: SessionOptions): Promise<LanguageModelSession>;
  params?(): Promise<{ defaultTopK: number; maxTopK: number; defaultTemperature: number; maxTemperature: number } | null>;
}

/** The API in this context, or null (older Chrome, other browsers, contexts without it). */
export function builtInLanguageModel(): LanguageModelApi | null {
  const api = (globalThis as { LanguageModel?: unknown }).LanguageModel;
  return typeof api === 'function' || (typeof api === 'object' && api !== null) ? (api as LanguageModelApi) : null;
}

const LANGUAGE = { expectedInputs: [{ type: 'text' as const, languages: ['en'] }], expectedOutputs: [{ type: 'text' as const, languages: ['en'] }] };

export const BUILT_IN_MODEL_NAME = 'chrome-built-in';

const UNSUPPORTED_TEXT =
  "This device or browser cannot run Chrome's built-in model (it needs desktop Chrome 138+ with the Prompt API, 22 GB free disk and a 4 GB+ GPU or 16 GB RAM). Apprentice uses the offline policy instead; or pick another provider.";

export interface PromptApiOptions {
  /** Download progress in [0, 1], while Chrome fetches the model. */
  onDownloadProgress?: (loaded: number) => void;
}

/** Maps a DOMException (or anything) thrown by the API to a ProviderError. */
function toProviderError(err: unknown, signal: AbortSignal | undefined): ProviderError {
  if (isProviderError(err)) return err;
  const e = err as { name?: unknown; message?: unknown; requested?: unknown; quota?: unknown };
  if (signal?.aborted || e?.name === 'AbortError') return new ProviderError('aborted', 'The request was cancelled.', { cause: err });
  if (e?.name === 'QuotaExceededError') {
    const detail = {
      ...(typeof e.quota === 'number' ? { contextTokens: e.quota } : {}),
      ...(typeof e.requested === 'number' ? { promptTokens: e.requested } : {}),
    };
    return new ProviderError('context_length', `The prompt exceeds the built-in model's context (${describeError(err)}).`, { cause: err, detail });
  }
  if (e?.name === 'NotSupportedError') return new ProviderError('unsupported_device', UNSUPPORTED_TEXT, { cause: err });
  return new ProviderError('server', `Chrome's built-in model failed: ${describeError(err)}`, { cause: err });
}

const usageOf = (s: LanguageModelSession): number | null => {
  const v = s.contextUsage ?? s.inputUsage;
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
};

export function createPromptApiChatModel(api: LanguageModelApi | null, options: PromptApiOptions = {}): ChatModel {
  let ready = false;

  async function open(request: ChatRequest, history: ChatMessage[], signal: AbortSignal | undefined): Promise<LanguageModelSession> {
    if (!api) throw new ProviderError('unsupported_device', UNSUPPORTED_TEXT);
    if (!ready) {
      const availability = await api.availability(LANGUAGE);
      if (availability === 'unavailable') throw new ProviderError('unsupported_device', UNSUPPORTED_TEXT);
    }
    const params = api.params ? await api.params().catch(() => null) : null;
    // Sampling parameters go together or not at all (the API rejects one without the other).
    const sampling = params ? { temperature: Math.min(request.temperature, params.maxTemperature), topK: params.defaultTopK } : {};
    const session = await api.create({
      ...LANGUAGE,
      ...sampling,
      initialPrompts: history.map((m) => ({ role: m.role, content: m.content })),
      ...(signal ? { signal } : {}),
      monitor: (m) => {
        m.addEventListener('downloadprogress', (event) => {
          const loaded = (event as Event & { loaded?: unknown }).loaded;
          if (typeof loaded === 'number') options.onDownloadProgress?.(loaded);
        });
      },
    });
    ready = true;
    return session;
  }

  async function chat(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    if (signal?.aborted) throw new ProviderError('aborted', 'The request was cancelled.');
    const last = request.messages.at(-1);
    if (!last || last.role !== 'user') throw new ProviderError('bad_request', 'The last message must be the user turn.');
    let session: LanguageModelSession | null = null;
    try {
      session = await open(request, request.messages.slice(0, -1), signal);
      const promptOptions: PromptOptions = {
        ...(request.json && request.jsonSchema ? { responseConstraint: request.jsonSchema } : {}),
        ...(signal ? { signal } : {}),
      };
      const before = usageOf(session);
      const input = session.measureInputUsage ? await session.measureInputUsage(last.content, promptOptions) : null;
      const quota = session.contextWindow ?? session.inputQuota;
      if (input !== null && before !== null && typeof quota === 'number' && before + input > quota) {
        throw new ProviderError('context_length', `The prompt (${before + input} tokens) exceeds the built-in model's context of ${quota} tokens.`, {
          detail: { contextTokens: quota, promptTokens: before + input },
        });
      }
      const text = await session.prompt(last.content, promptOptions);
      const after = usageOf(session);
      const promptTokens = before !== null && input !== null ? before + input : Math.ceil(request.messages.reduce((n, m) => n + m.content.length, 0) / 4);
      const completionTokens = after !== null && before !== null && input !== null ? Math.max(0, after - before - input) : Math.ceil(text.length / 4);
      return { text, tokens: null, usage: { promptTokens, completionTokens }, model: BUILT_IN_MODEL_NAME };
    } catch (err) {
      throw toProviderError(err, signal);
    } finally {
      session?.destroy();
    }
  }

  return { chat };
}

export interface BuiltInModelStatus {
  availability: Availability | 'missing';
  message: string;
}

/** What the options page says about the built-in model on this device. */
export async function builtInModelStatus(api: LanguageModelApi | null): Promise<BuiltInModelStatus> {
  if (!api) {
    return { availability: 'missing', message: `This browser has no Prompt API (LanguageModel). ${UNSUPPORTED_TEXT}` };
  }
  const availability = await api.availability(LANGUAGE).catch(() => 'unavailable' as const);
  const message: Record<Availability, string> = {
    available: "Chrome's built-in model is ready on this device: no key, nothing leaves the computer. It gives no token logprobs, so logits come from verbalized confidences.",
    downloadable: "Chrome's built-in model is supported here but not downloaded yet; Test connection starts the download (about 2–4 GB) and shows its progress.",
    downloading: "Chrome is downloading its built-in model; Test connection shows the progress.",
    unavailable: UNSUPPORTED_TEXT,
  };
  return { availability, message: message[availability] };
}

/** Test connection for the built-in model: a tiny prompt (which also starts a pending download). */
export async function testBuiltInModel(model: ChatModel): Promise<ProviderTestResult> {
  const started = Date.now();
  try {
    await model.chat({ messages: [{ role: 'user', content: 'Reply with the single word: ready' }], temperature: 0, maxTokens: 5, logprobs: false, topLogprobs: 0, json: false });
    return {
      ok: true,
      model: BUILT_IN_MODEL_NAME,
      logprobs: false,
      latencyMs: Date.now() - started,
      message: "Chrome's built-in model answered. It gives no token logprobs, so candidate logits come from verbalized confidences.",
    };
  } catch (err) {
    return {
      ok: false,
      model: BUILT_IN_MODEL_NAME,
      logprobs: false,
      latencyMs: Date.now() - started,
      message: describeError(err),
      ...(isProviderError(err) ? { kind: err.kind } : {}),
    };
  }
}
