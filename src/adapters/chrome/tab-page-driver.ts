/**
 * PageDriver over a Chrome tab: messages to our content script, with the
 * waits a real tab needs — the content script may not be there yet (tab
 * opened before install, a page not yet idle), and a click may
 * navigate, which closes the message channel before the reply arrives.
 *
 * Safe navigation lives here, where the tab is known:
 *   - `go_back` is refused on the episode's first page (`backDepth` 0), and a
 *     back that lands on a page that is not http(s) is undone;
 *   - a page our content script cannot run on (about:blank, chrome://, the
 *     Web Store, Chrome's PDF viewer) fails at once with a clear message, so
 *     the episode pauses instead of looping;
 *   - a tab the action opened (target=_blank, window.open) is followed: the
 *     step's result says so and `follow` moves the episode there.
 */
import type { Action, ActionResult } from '../../core/page/action.ts';
import type { ObserveOptions, PageObservation } from '../../core/page/observation.ts';
import type { TargetFingerprint } from '../../core/page/target-fingerprint.ts';
import type { PageDriver } from '../../core/ports.ts';
import { maskObservation } from '../../core/secrets/mask-secrets.ts';
import { createPageClient } from '../../protocol/validate.ts';
import type { OpenedTab } from './new-tab-tracker.ts';

/** The slice of chrome.tabs / chrome.scripting this driver needs. */
export interface TabsSlice {
  sendMessage(tabId: number, message: unknown): Promise<unknown>;
  get(tabId: number): Promise<{ status?: string | undefined; url?: string | undefined; pendingUrl?: string | undefined; incognito?: boolean | undefined }>;
  goForward?(tabId: number): Promise<void>;
}
export interface ScriptingSlice {
  executeScript(injection: { target: { tabId: number }; files: string[] }): Promise<unknown>;
}

export class TabGoneError extends Error {
  override name = 'TabGoneError';
}

/** The tab shows a page extensions may not read: the episode pauses with this message. */
export class PageUnavailableError extends Error {
  override name = 'PageUnavailableError';
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
const WEB_STORE = /^https:\/\/(chromewebstore\.google\.com|chrome\.google\.com\/webstore)(\/|$)/;
/** How long after an action a new tab it opened is waited for (Chrome reports it asynchronously). */
const NEW_TAB_WAIT_MS = [0, 100, 250];
/** Actions that can open a tab. */
const MAY_OPEN_TAB = new Set<Action['type']>(['click', 'dblclick', 'press', 'check', 'uncheck', 'select_option']);

/** Why our content script cannot run on `url`, or null when it can. */
/** What a go_back that left the web pages returns, after going forward again (the benchmark's driver says the same). */
export const BACK_LEFT_THE_WEB = 'going back left the task\'s pages; Apprentice went forward again';

export function unreadablePageReason(url: string | undefined): string | null {
  if (url === undefined || url === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `the tab shows something that is not a web page (${url})`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    const what = parsed.protocol === 'about:' ? 'an empty page' : `a browser page (${parsed.protocol})`;
    return `the tab shows ${what}, where Apprentice cannot read or act (${url}). Open the task's page in this tab, then resume.`;
  }
  if (WEB_STORE.test(url)) return 'the Chrome Web Store does not let extensions read or act on its pages. Open the task\'s page, then resume.';
  if (/\.pdf$/i.test(parsed.pathname)) return `the tab shows a PDF in Chrome's viewer, which extensions cannot read (${url}). Open the task's page, then resume.`;
  return null;
}

export function createTabPageDriver(deps: {
  tabId: number;
  tabs: TabsSlice;
  scripting: ScriptingSlice;
  contentScriptFiles: string[];
  timeoutMs?: number;
  /**
   * Pages the episode can go back without leaving its first page, given the
   * tab's current URL (`historyDepth`); undefined: no guard.
   */
  backDepth?: (currentUrl: string | undefined) => number;
  /** A tab this tab opened at or after `since`, if any; absent: new tabs are not followed. */
  openedSince?(tabId: number, since: number): OpenedTab | null;
  /** Moves the episode to a tab its action opened (and shows it). */
  follow?(tab: OpenedTab): Promise<void>;
  now?: () => number;
}): PageDriver {
  const { tabId, tabs } = deps;
  const client = createPageClient((message) => tabs.sendMessage(tabId, message));
  const timeoutMs = deps.timeoutMs ?? 15_000;
  const now = deps.now ?? Date.now;

  async function waitForLoad(deadline: number): Promise<void> {
    for (;;) {
      const tab = await tabs.get(tabId).catch(() => null);
      if (!tab) throw new TabGoneError(`tab ${tabId} was closed`);
      if (tab.status === 'complete') return;
      if (Date.now() > deadline) return;
      await sleep(100);
    }
  }

  async function currentUrl(): Promise<string | undefined> {
    const tab = await tabs.get(tabId).catch(() => null);
    if (!tab) throw new TabGoneError(`tab ${tabId} was closed`);
    return tab.url || tab.pendingUrl;
  }

  /** Pings the content script; injects it once if nobody answers (tabs opened before the extension). */
  async function ensureContentScript(deadline: number): Promise<void> {
    const reason = unreadablePageReason(await currentUrl());
    if (reason !== null) throw new PageUnavailableError(`Paused: ${reason}`);
    let injected = false;
    for (;;) {
      try {
        // A page whose main thread hangs never answers: the check-in times out and the episode pauses.
        await withTimeout(client.request('page.ping', {}), Math.max(1, deadline - Date.now()), 'the page\'s first answer');
        return;
      } catch (err) {
        if (err instanceof PageTimeoutError) {
          throw new PageUnavailableError(`Paused: the page in tab ${tabId} does not respond (${(await currentUrl().catch(() => undefined)) ?? 'no URL'}); its scripts may be busy or stuck. Wait for it or reload it, then resume.`);
        }
        if (!CHANNEL_CLOSED.test(String(err)) && !/Could not establish connection/i.test(String(err))) throw err;
      }
      if (Date.now() > deadline) {
        throw new PageUnavailableError(`Paused: the page in tab ${tabId} does not answer (${(await currentUrl()) ?? 'no URL'}); it may not allow extensions, or it is a download or a viewer. Open the task's page, then resume.`);
      }
      await waitForLoad(deadline);
      if (!injected && deps.contentScriptFiles.length) {
        injected = true;
        await deps.scripting.executeScript({ target: { tabId }, files: deps.contentScriptFiles }).catch(() => undefined);
      }
      await sleep(150);
    }
  }

  async function runAction(action: Action, deadline: number, expect: TargetFingerprint | undefined): Promise<ActionResult> {
    try {
      // A timed-out action may still have run: the caller reports the outcome as unknown.
      const result = await withTimeout(client.request('page.act', { action, ...(expect ? { expect } : {}) }), Math.max(1, deadline - Date.now()), 'the action');
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
  }

  async function followNewTab(result: ActionResult, since: number): Promise<ActionResult> {
    if (!result.ok || deps.openedSince === undefined || deps.follow === undefined) return result;
    for (const wait of NEW_TAB_WAIT_MS) {
      if (wait > 0) await sleep(wait);
      const opened = deps.openedSince(tabId, since);
      if (opened === null) continue;
      await deps.follow(opened);
      const url = opened.url || (await tabs.get(opened.tabId).then((t) => t.url || t.pendingUrl || '', () => ''));
      return { ...result, openedTab: { tabId: opened.tabId, url }, note: `opened a new tab (${url || 'loading'}); the agent follows it there` };
    }
    return result;
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
      return maskObservation(observation);
    },
    async act(action: Action, _signal?: AbortSignal, expect?: TargetFingerprint): Promise<ActionResult> {
      const deadline = Date.now() + timeoutMs;
      if (action.type === 'go_back' && deps.backDepth !== undefined
        && deps.backDepth(await tabs.get(tabId).then((t) => t.url, () => undefined)) <= 0) {
        return { ok: false, code: 'invalid_action', message: 'this is the first page of the task: going back would leave it' };
      }
      await ensureContentScript(deadline);
      const since = now();
      const result = await runAction(action, deadline, expect);
      if (action.type === 'go_back' && result.ok) {
        // A back that left the web (about:blank, a browser page) is undone.
        const reason = unreadablePageReason(await currentUrl().catch(() => undefined));
        if (reason !== null && tabs.goForward !== undefined) {
          await tabs.goForward(tabId).catch(() => undefined);
          await waitForLoad(deadline);
          return { ok: false, code: 'invalid_action', message: BACK_LEFT_THE_WEB };
        }
      }
      return MAY_OPEN_TAB.has(action.type) ? followNewTab(result, since) : result;
    },
  };
}
