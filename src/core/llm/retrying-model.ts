/**
 * Retries for a model call that failed for a passing reason — rate limited
 * (429), a server error (5xx), a timeout, a dropped connection — with
 * exponential backoff, honouring the provider's Retry-After when it sent one.
 * Errors that another try cannot fix (auth, bad request, cancelled) and
 * malformed answers (handled by the policy's own repair) are not retried.
 * After the last try the error goes up, and the episode pauses and says why.
 */
import { isProviderError, type ProviderErrorKind } from '../errors.ts';
import type { ChatModel } from '../ports.ts';

const TRANSIENT: ReadonlySet<ProviderErrorKind> = new Set(['rate_limited', 'server', 'timeout', 'unreachable']);

export interface RetryOptions {
  /** Tries in all, the first included. */
  attempts?: number;
  /** Delay before the second try; doubles each time. */
  baseDelayMs?: number;
  /** Never wait longer than this between tries, whatever Retry-After says. */
  maxDelayMs?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Called before each wait (the UI can say "retrying in 4 s"). */
  onRetry?: (info: { attempt: number; delayMs: number; error: unknown }) => void;
}

/** Retry-After in ms from an error whose cause carries response headers (seconds or an HTTP date). */
export function retryAfterMs(error: unknown, now = Date.now()): number | null {
  const cause = (error as { cause?: { headers?: unknown } } | null)?.cause;
  const headers = cause?.headers as { get?: (k: string) => string | null } | Record<string, string> | undefined;
  if (!headers) return null;
  const raw = typeof headers.get === 'function' ? headers.get('retry-after') : (headers as Record<string, string>)['retry-after'];
  if (typeof raw !== 'string' || raw.trim() === '') return null;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(raw);
  return Number.isFinite(at) ? Math.max(0, at - now) : null;
}

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    }, { once: true });
  });

export function retryingChatModel(model: ChatModel, options: RetryOptions = {}): ChatModel {
  const attempts = Math.max(1, options.attempts ?? 3);
  const base = options.baseDelayMs ?? 1000;
  const cap = options.maxDelayMs ?? 30_000;
  const sleep = options.sleep ?? defaultSleep;
  return {
    async chat(request, signal) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await model.chat(request, signal);
        } catch (error) {
          const transient = isProviderError(error) && TRANSIENT.has(error.kind);
          if (!transient || attempt >= attempts || signal?.aborted) throw error;
          const delayMs = Math.min(cap, retryAfterMs(error) ?? base * 2 ** (attempt - 1));
          options.onRetry?.({ attempt, delayMs, error });
          await sleep(delayMs, signal);
        }
      }
    },
  };
}
