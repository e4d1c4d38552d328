/**
 * The message channel to our content script in one tab (tab-page-driver.ts):
 * waiting for the tab to load, checking the content script is there (and
 * injecting it once when it is not), and sending an action — whose reply a
 * navigation may cut off, which then counts as the action having navigated.
 */
import type { Action, ActionResult } from '../../core/page/action.ts';
import type { TargetFingerprint } from '../../core/page/target-fingerprint.ts';
import { createPageClient } from '../../protocol/validate.ts';

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

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
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
export function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PageTimeoutError(`${what} took longer than ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
const WEB_STORE = /^https:\/\/(chromewebstore\.google\.com|chrome\.google\.com\/webstore)(\/|$)/;

/** Why our content script cannot run on `url`, or null when it can. */
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

export class TabChannel {
  readonly client: ReturnType<typeof createPageClient>;

  constructor(
    private readonly tabId: number,
    private readonly tabs: TabsSlice,
    private readonly scripting: ScriptingSlice,
    private readonly contentScriptFiles: string[],
  ) {
    this.client = createPageClient((message) => tabs.sendMessage(tabId, message));
  }

  async waitForLoad(deadline: number): Promise<void> {
    for (;;) {
      const tab = await this.tabs.get(this.tabId).catch(() => null);
      if (!tab) throw new TabGoneError(`tab ${this.tabId} was closed`);
      if (tab.status === 'complete') return;
      if (Date.now() > deadline) return;
      await sleep(100);
    }
  }

  async currentUrl(): Promise<string | undefined> {
    const tab = await this.tabs.get(this.tabId).catch(() => null);
    if (!tab) throw new TabGoneError(`tab ${this.tabId} was closed`);
    return tab.url || tab.pendingUrl;
  }

  /** Pings the content script; injects it once if nobody answers (tabs opened before the extension). */
  async ensureContentScript(deadline: number): Promise<void> {
    const reason = unreadablePageReason(await this.currentUrl());
    if (reason !== null) throw new PageUnavailableError(`Paused: ${reason}`);
    let injected = false;
    for (;;) {
      try {
        // A page whose main thread hangs never answers: the check-in times out and the episode pauses.
        await withTimeout(this.client.request('page.ping', {}), Math.max(1, deadline - Date.now()), 'the page\'s first answer');
        return;
      } catch (err) {
        if (err instanceof PageTimeoutError) {
          throw new PageUnavailableError(`Paused: the page in tab ${this.tabId} does not respond (${(await this.currentUrl().catch(() => undefined)) ?? 'no URL'}); its scripts may be busy or stuck. Wait for it or reload it, then resume.`);
        }
        if (!CHANNEL_CLOSED.test(String(err)) && !/Could not establish connection/i.test(String(err))) throw err;
      }
      if (Date.now() > deadline) {
        throw new PageUnavailableError(`Paused: the page in tab ${this.tabId} does not answer (${(await this.currentUrl()) ?? 'no URL'}); it may not allow extensions, or it is a download or a viewer. Open the task's page, then resume.`);
      }
      await this.waitForLoad(deadline);
      if (!injected && this.contentScriptFiles.length) {
        injected = true;
        await this.scripting.executeScript({ target: { tabId: this.tabId }, files: this.contentScriptFiles }).catch(() => undefined);
      }
      await sleep(150);
    }
  }

  async runAction(action: Action, deadline: number, expect: TargetFingerprint | undefined): Promise<ActionResult> {
    try {
      // A timed-out action may still have run: the caller reports the outcome as unknown.
      const result = await withTimeout(this.client.request('page.act', { action, ...(expect ? { expect } : {}) }), Math.max(1, deadline - Date.now()), 'the action');
      if (result.ok && result.navigated) await sleep(50).then(() => this.waitForLoad(deadline));
      return result;
    } catch (err) {
      if (err instanceof PageTimeoutError) return { ok: false, code: 'timeout', message: `${err.message}; it may or may not have run` };
      // Never delivered: the action did not run, and nothing navigated.
      if (NOT_DELIVERED.test(String(err))) return { ok: false, code: 'no_page', message: 'the page did not receive the action; it was not run' };
      // The page unloaded before replying: the action navigated, which is success.
      if (CHANNEL_CLOSED.test(String(err))) {
        await sleep(100);
        await this.waitForLoad(deadline);
        return { ok: true, navigated: true, note: 'the page navigated' };
      }
      throw err;
    }
  }
}
