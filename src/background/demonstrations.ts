/**
 * Background side of demonstration recording: the chrome plumbing around the
 * core DemonstrationRecorder. Switches recording on and off in a tab's
 * content script, re-arms it after every page load in the recorded tab,
 * ends it (as partial) when the tab closes, and receives the recorded steps
 * from the content script — checking that they come from our own content
 * script, in the top frame of a tab, on the page the tab shows.
 */
import type { DemonstrationPage, DemonstrationRecorder } from '../core/agent/demonstration-recorder.ts';
import { RECORDING_PORT_NAME } from '../protocol/messages.ts';
import { createPageClient, dispatchContentRequest, isContentRequestType, type ContentHandlers } from '../protocol/validate.ts';
import type { TabsSlice, ScriptingSlice } from '../adapters/chrome/tab-page-driver.ts';
import type { TeachingRouter } from './teaching.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const NOT_THERE = /Receiving end does not exist|Could not establish connection|message (port|channel) closed|back\/forward cache|frame was removed/i;

/**
 * The tab side as chrome messaging. The content script may not be there yet
 * (it starts when the page is idle), so `page.record`
 * is retried until it answers, injecting the script once if it never does.
 */
export function createTabDemonstrationPage(deps: {
  tabs: TabsSlice;
  scripting: ScriptingSlice;
  contentScriptFiles: string[];
  timeoutMs?: number;
}): DemonstrationPage {
  return {
    async setRecording(tabId, on) {
      const client = createPageClient((message) => deps.tabs.sendMessage(tabId, message));
      const deadline = Date.now() + (deps.timeoutMs ?? 10_000);
      let injected = false;
      for (;;) {
        try {
          await client.request('page.record', { on });
          return;
        } catch (err) {
          if (!NOT_THERE.test(String(err))) throw err;
        }
        if (Date.now() > deadline) throw new Error(`the page in tab ${tabId} does not answer`);
        const tab = await deps.tabs.get(tabId).catch(() => null);
        if (!tab) throw new Error(`tab ${tabId} was closed`);
        if (!injected && tab.status === 'complete' && deps.contentScriptFiles.length) {
          injected = true;
          await sleep(300); // give the manifest's own injection a chance first
          await deps.scripting.executeScript({ target: { tabId }, files: deps.contentScriptFiles }).catch(() => undefined);
        }
        await sleep(100);
      }
    },
    async tabUrl(tabId) {
      const tab = await deps.tabs.get(tabId);
      if (tab.incognito) throw new Error('Apprentice does not record in incognito windows, so nothing from them is stored.');
      if (!tab.url || !/^https?:/.test(tab.url)) throw new Error('Apprentice records on http(s) pages; this tab shows something else.');
      return tab.url;
    },
  };
}

interface ContentSender {
  id?: string | undefined;
  url?: string | undefined;
  frameId?: number | undefined;
  tab?: { id?: number | undefined } | undefined;
}

const originOf = (url: string): string | null => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/**
 * The tab a content message may speak for, or null: our extension, a
 * content script (it has a tab) in the top frame of an http(s) page.
 */
export function contentSenderTab(sender: ContentSender, extensionId: string): number | null {
  if (sender.id !== extensionId || sender.tab?.id === undefined) return null;
  if ((sender.frameId ?? 0) !== 0) return null;
  if (!/^https?:/.test(sender.url ?? '')) return null;
  return sender.tab.id;
}

/** Teaching (Show me, Take over) sees each step first; what it does not claim is a demonstration's. */
export function createContentHandlers(
  recorder: () => Promise<Pick<DemonstrationRecorder, 'record'>>,
  teaching?: () => Promise<TeachingRouter>,
): ContentHandlers<{ tabId: number; senderUrl: string }> {
  return {
    'demo.step': async (step, ctx) => {
      // The step describes the page that sent it, not some other site.
      if (originOf(step.url) !== originOf(ctx.senderUrl)) throw new Error('the step names a page other than the one that sent it');
      if (teaching && (await (await teaching()).step(ctx.tabId, step))) return { ok: true as const };
      await (await recorder()).record(ctx.tabId, step);
      return { ok: true as const };
    },
    'demo.unrecordable': async ({ what }, ctx) => {
      // A demonstration records what it can and skips the rest; teaching ends with a message.
      if (teaching) await (await teaching()).unrecordable(ctx.tabId, what);
      return { ok: true as const };
    },
  };
}

/**
 * Registers the listeners (call at the top level of the worker: MV3 wakes it
 * for these events only when they were registered synchronously).
 */
export function registerDemonstrationListeners(
  recorder: () => Promise<Pick<DemonstrationRecorder, 'record' | 'tabLoaded' | 'tabClosed' | 'recordingIn'>>,
  log: (message: string, data: Record<string, unknown>) => void,
  teaching?: () => Promise<TeachingRouter>,
): void {
  const handlers = createContentHandlers(recorder, teaching);
  chrome.runtime.onMessage.addListener((message: unknown, sender, sendResponse) => {
    if (typeof message !== 'object' || message === null || !isContentRequestType((message as { type?: unknown }).type)) return undefined;
    const tabId = contentSenderTab(sender, chrome.runtime.id);
    if (tabId === null) {
      sendResponse({ ok: false, error: { name: 'ForbiddenSender', message: 'not an Apprentice content script' } });
      return undefined;
    }
    void dispatchContentRequest(handlers, message, { tabId, senderUrl: sender.url ?? '' }).then(sendResponse);
    return true;
  });
  // The recording page's keep-awake port (see content/record/recording-link.ts): held open
  // only for a tab that is being recorded; its heartbeats need no answer.
  chrome.runtime.onConnect.addListener((port) => {
    if (port.name !== RECORDING_PORT_NAME) return;
    const tabId = port.sender ? contentSenderTab(port.sender, chrome.runtime.id) : null;
    if (tabId === null) {
      port.disconnect();
      return;
    }
    void recorder()
      .then(async (r) => (await r.recordingIn(tabId)) !== null || (teaching !== undefined && (await (await teaching()).wants(tabId))))
      .then((wanted) => { if (!wanted) port.disconnect(); }, () => port.disconnect());
  });
  chrome.tabs.onUpdated.addListener((tabId, change, tab) => {
    if (change.status !== 'complete') return;
    void (async () => {
      if (teaching && (await (await teaching()).tabLoaded(tabId, tab.url ?? ''))) return;
      await (await recorder()).tabLoaded(tabId);
    })().catch((err: unknown) => log('re-arming the recording failed', { tabId, error: String(err) }));
  });
  chrome.tabs.onRemoved.addListener((tabId) => {
    if (teaching) void teaching().then((t) => t.tabClosed(tabId)).catch((err: unknown) => log('ending teaching failed', { tabId, error: String(err) }));
    void recorder()
      .then((r) => r.tabClosed(tabId))
      .catch((err: unknown) => log('closing the recording failed', { tabId, error: String(err) }));
  });
}
