/**
 * Keeps the MV3 service worker alive while a long model call runs. Chrome
 * stops an idle worker after 30 s, and an event or extension API call resets
 * that timer; a slow local model can take minutes. While at least one call is
 * in flight, a cheap extension API call every 20 s keeps the worker up.
 */
import type { ChatModel } from '../../core/ports.ts';

export interface KeepAliveDeps {
  /** Any cheap extension API call (chrome.runtime.getPlatformInfo). */
  ping(): Promise<unknown>;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export const KEEP_ALIVE_INTERVAL_MS = 20_000;

export function createKeepAlive(deps: KeepAliveDeps) {
  let inFlight = 0;
  let timer: unknown = null;
  return {
    async during<T>(work: () => Promise<T>): Promise<T> {
      if (inFlight++ === 0) timer = deps.setInterval(() => void deps.ping().catch(() => undefined), KEEP_ALIVE_INTERVAL_MS);
      try {
        return await work();
      } finally {
        if (--inFlight === 0) {
          deps.clearInterval(timer);
          timer = null;
        }
      }
    },
    get active(): boolean {
      return inFlight > 0;
    },
  };
}

/** The model with every call covered by the keep-alive. */
export function keptAliveModel(model: ChatModel, keepAlive: ReturnType<typeof createKeepAlive>): ChatModel {
  return { chat: (request, signal) => keepAlive.during(() => model.chat(request, signal)) };
}
