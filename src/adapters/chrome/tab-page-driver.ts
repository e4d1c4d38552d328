/**
 * PageDriver over a Chrome tab: messages to our content script, with the
 * waits a real tab needs — the content script may not be there yet (tab
 * opened before install, crxjs's asynchronous loader), and a click may
 * navigate, which closes the message channel before the reply arrives.
 */
import type { Action, ActionResult } from '../../core/page/action.ts';
import type { ObserveOptions, PageObservation } from '../../core/page/observation.ts';
import type { PageDriver } from '../../core/ports.ts';
import { maskObservationSecrets } from '../../core/page/secret-fields.ts';
import { createPageClient } from '../../protocol/validate.ts';

/** The slice of chrome.tabs / chrome.scripting this driver needs. */
export interface TabsSlice {
  sendMessage(tabId: number, message: unknown): Promise<unknown>;
  get(tabId: number): Promise<{ status?: string | undefined; url?: string | undefined; incognito?: boolean | undefined }>;
}
export interface ScriptingSlice {
  executeScript(injection: { target: { tabId: number }; files: string[] }): Promise<unknown>;
}

export class TabGoneError extends Error {
  override name = 'TabGoneError';
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const CHANNEL_CLOSED = /message (port|channel) closed|Receiving end does not exist|back\/forward cache|frame was removed|context invalidated/i;
/**
 * Nobody received the message: the action never started. Distinct from a
 * channel that closed after delivery (the page unloaded mid-action, which is
 * a navigation).
 */
const NOT_DELIVERED = /Receiving end does not exist|Could not establish connection/i;

export class PageTimeoutError extends Error {
  override name = 'PageTimeoutError';
}

/** Rejects when `work` takes longer than `ms`; the work itself cannot be cancelled across the message channel. */
function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PageTimeoutError(`${what} took longer than ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export function createTabPageDriver(deps: {
  tabId: number;
  tabs: TabsSlice;
  scripting: ScriptingSlice;
  contentScriptFiles: string[];
  timeoutMs?: number;
}): PageDriver {
  const { tabId, tabs } = deps;
  const client = createPageClient((message) => tabs.sendMessage(tabId, message));
  const timeoutMs = deps.timeoutMs ?? 15_000;

  async function waitForLoad(deadline: number): Promise<void> {
    for (;;) {
      const tab = await tabs.get(tabId).catch(() => null);
      if (!tab) throw new TabGoneError(`tab ${tabId} was closed`);
      if (tab.status === 'complete') return;
      if (Date.now() > deadline) return;
      await sleep(100);
    }
  }

  /** Pings the content script; injects it once if nobody answers (tabs opened before the extension). */
  async function ensureContentScript(deadline: number): Promise<void> {
    let injected = false;
    for (;;) {
      try {
        await client.request('page.ping', {});
        return;
      } catch (err) {
        if (!CHANNEL_CLOSED.test(String(err)) && !/Could not establish connection/i.test(String(err))) throw err;
      }
      if (Date.now() > deadline) throw new TabGoneError(`the page in tab ${tabId} does not answer (it may not allow extensions)`);
      await waitForLoad(deadline);
      if (!injected && deps.contentScriptFiles.length) {
        injected = true;
        await deps.scripting.executeScript({ target: { tabId }, files: deps.contentScriptFiles }).catch(() => undefined);
      }
      await sleep(150);
    }
  }

  return {
    async observe(options: ObserveOptions): Promise<PageObservation> {
      const deadline = Date.now() + timeoutMs;
      await waitForLoad(deadline);
      await ensureContentScript(deadline);
      const observation = await withTimeout(
        client.request('page.observe', { maxChars: options.maxChars ?? 12_000, lastActedRef: options.lastActedRef ?? null }),
        Math.max(1, deadline - Date.now()),
        'observing the page',
      );
      // Secrets never reach a prompt or a store, whatever the page layer sent.
      return maskObservationSecrets(observation);
    },
    async act(action: Action): Promise<ActionResult> {
      const deadline = Date.now() + timeoutMs;
      await ensureContentScript(deadline);
      try {
        // A timed-out action may still have run: the caller reports the outcome as unknown.
        const result = await withTimeout(client.request('page.act', { action }), Math.max(1, deadline - Date.now()), 'the action');
        if (result.ok && result.navigated) await sleep(50).then(() => waitForLoad(deadline));
        return result;
      } catch (err) {
        if (err instanceof PageTimeoutError) return { ok: false, code: 'timeout', message: `${err.message}; it may or may not have run` };
        // Never delivered: the action did not run, and nothing navigated.
        if (NOT_DELIVERED.test(String(err))) return { ok: false, code: 'no_page', message: 'the page did not receive the action; it was not run' };
        // The page unloaded before replying: the action navigated, which is success.
        if (CHANNEL_CLOSED.test(String(err))) {
          await sleep(100);
          await waitForLoad(deadline);
          return { ok: true, navigated: true, note: 'the page navigated' };
        }
        throw err;
      }
    },
  };
}
