/**
 * A fake of Chrome's Prompt API (`LanguageModel`) that follows the published
 * surface: availability() states, create() with initialPrompts, a monitor
 * that receives `downloadprogress` events (loaded ∈ [0, 1]) while the model
 * downloads, sampling parameters that must come as a pair, prompt() with a
 * responseConstraint and an AbortSignal, measureInputUsage, a context quota
 * that rejects with QuotaExceededError, and destroy(). Test-only.
 */
import type { Availability, LanguageModelApi, LanguageModelSession, PromptMessage, PromptOptions, SessionOptions } from '../../src/adapters/chrome-ai/prompt-api-model.ts';

export interface FakePrompt {
  initialPrompts: PromptMessage[];
  input: string;
  options: PromptOptions;
  temperature: number | undefined;
}

export interface FakeLanguageModelOptions {
  availability: Availability;
  /** The session's context window in tokens (tokens ≈ ⌈chars / 4⌉ in this fake). */
  quota?: number;
  /** The model's answer to each prompt. */
  respond?: (prompt: FakePrompt) => string;
  /** Never resolve prompt() until aborted. */
  hang?: boolean;
}

const tokensOf = (text: string): number => Math.ceil(text.length / 4);

class ProgressEvent extends Event {
  constructor(readonly loaded: number) {
    super('downloadprogress');
  }
}

const domError = (name: string, message: string, extra: Record<string, unknown> = {}): Error =>
  Object.assign(new Error(message), { name }, extra);

export function fakeLanguageModel(options: FakeLanguageModelOptions) {
  const prompts: FakePrompt[] = [];
  let destroyed = 0;
  let state: Availability = options.availability;
  const quota = options.quota ?? 6144;

  const api: LanguageModelApi = {
    availability: async () => state,
    params: async () => ({ defaultTopK: 3, maxTopK: 128, defaultTemperature: 1, maxTemperature: 2 }),
    async create(create: SessionOptions = {}) {
      if (state === 'unavailable') throw domError('NotSupportedError', 'The model is not available on this device.');
      if ((create.temperature === undefined) !== (create.topK === undefined)) {
        throw domError('NotSupportedError', 'temperature and topK must be given together');
      }
      if (state === 'downloadable' || state === 'downloading') {
        const monitor = new EventTarget();
        create.monitor?.(monitor);
        for (const loaded of [0, 0.5, 1]) monitor.dispatchEvent(new ProgressEvent(loaded));
        state = 'available';
      }
      const initialPrompts = create.initialPrompts ?? [];
      let usage = initialPrompts.reduce((n, m) => n + tokensOf(m.content), 0);
      if (usage > quota) throw domError('QuotaExceededError', 'The initial prompts are too large.', { requested: usage, quota });
      const session: LanguageModelSession = {
        get inputUsage() {
          return usage;
        },
        inputQuota: quota,
        measureInputUsage: async (input) => tokensOf(input),
        async prompt(input, promptOptions = {}) {
          const signal = promptOptions.signal;
          if (signal?.aborted) throw domError('AbortError', 'aborted');
          const requested = usage + tokensOf(input);
          if (requested > quota) throw domError('QuotaExceededError', 'The input is too large.', { requested, quota });
          const prompt = { initialPrompts, input, options: promptOptions, temperature: create.temperature };
          prompts.push(prompt);
          if (options.hang) {
            await new Promise<never>((_, reject) => {
              signal?.addEventListener('abort', () => reject(domError('AbortError', 'aborted')), { once: true });
            });
          }
          const text = options.respond?.(prompt) ?? 'ok';
          usage = requested + tokensOf(text);
          return text;
        },
        destroy: () => {
          destroyed++;
        },
      };
      return session;
    },
  };
  return {
    api,
    prompts,
    destroyed: () => destroyed,
  };
}
