import { describe, expect, it } from 'vitest';
import { historyDepth, type HistoryStep } from '../../src/core/page/history-depth.ts';
import { createTabPageDriver, unreadablePageReason, type TabsSlice } from '../../src/adapters/chrome/tab-page-driver.ts';
import { NewTabTracker, type OpenedTab } from '../../src/adapters/chrome/new-tab-tracker.ts';
import type { ActionResult } from '../../src/core/page/action.ts';

const step = (action: string, result: ActionResult | null): HistoryStep => ({ chosen: { action }, result });
const nav: ActionResult = { ok: true, navigated: true };
const stay: ActionResult = { ok: true, navigated: false };

describe('historyDepth', () => {
  it('counts navigations, subtracts successful backs, never below 0', () => {
    expect(historyDepth([])).toBe(0);
    expect(historyDepth([step('click([1])', nav), step('click([2])', stay), step('goto("http://a.test/x")', nav)])).toBe(2);
    expect(historyDepth([step('click([1])', nav), step('go_back()', nav), step('go_back()', nav)])).toBe(0);
    expect(historyDepth([step('click([1])', nav), step('go_back()', nav), step('go_forward()', nav)])).toBe(1);
  });

  it('a navigation that lands on the URL it started from adds no entry (the browser replaces it)', () => {
    const at = (url: string, action: string, result: ActionResult | null): HistoryStep => ({ chosen: { action }, result, url });
    // Home → (logo link to home) → home: nothing behind the task's first page.
    expect(historyDepth([at('http://a.test/', 'click([1])', nav)], 'http://a.test/')).toBe(0);
    expect(historyDepth([at('http://a.test/', 'click([1])', nav), at('http://a.test/', 'click([2])', nav)], 'http://a.test/b')).toBe(1);
    // A fragment is another URL: that navigation does add an entry.
    expect(historyDepth([at('http://a.test/', 'click([1])', nav)], 'http://a.test/#top')).toBe(1);
    // Where the last step landed is unknown: counted as before.
    expect(historyDepth([at('http://a.test/', 'click([1])', nav)])).toBe(1);
  });

  it('ignores failed and undecided steps, and restarts in a followed tab', () => {
    const failed: ActionResult = { ok: false, code: 'obscured', message: 'covered' };
    expect(historyDepth([step('click([1])', failed), { chosen: null, result: null }])).toBe(0);
    const opened: ActionResult = { ok: true, navigated: false, openedTab: { tabId: 9, url: 'http://a.test/' } };
    expect(historyDepth([step('click([1])', nav), step('click([2])', opened), step('click([3])', nav)])).toBe(1);
  });
});

describe('unreadablePageReason', () => {
  it('names pages the content script cannot run on, and passes web pages', () => {
    expect(unreadablePageReason('https://example.com/a')).toBeNull();
    expect(unreadablePageReason(undefined)).toBeNull();
    expect(unreadablePageReason('about:blank')).toMatch(/^the tab shows an empty page/);
    expect(unreadablePageReason('chrome://settings/')).toMatch(/a browser page \(chrome:\)/);
    expect(unreadablePageReason('https://chromewebstore.google.com/detail/x')).toMatch(/Web Store/);
    expect(unreadablePageReason('https://chrome.google.com/webstore/category')).toMatch(/Web Store/);
    expect(unreadablePageReason('https://example.com/report.PDF')).toMatch(/PDF/);
  });
});

describe('NewTabTracker', () => {
  it('remembers tabs by opener and answers for openings since a time', () => {
    let now = 1000;
    const tracker = new NewTabTracker(() => now);
    let listener: ((tab: { id?: number; openerTabId?: number; pendingUrl?: string }) => void) | null = null;
    tracker.listen({ addListener: (cb) => (listener = cb) });
    listener!({ id: 5 }); // no opener: not ours to follow
    listener!({ id: 6, openerTabId: 1, pendingUrl: 'http://a.test/new' });
    now = 2000;
    expect(tracker.openedSince(1, 900)).toEqual({ tabId: 6, url: 'http://a.test/new', at: 1000 });
    expect(tracker.openedSince(1, 1500)).toBeNull();
    expect(tracker.openedSince(5, 0)).toBeNull();
  });
});

describe('tab page driver navigation', () => {
  function fakeTabs(url: string, reply: (message: { type: string }) => unknown): TabsSlice & { forwards: number; currentUrl: string } {
    const t = {
      forwards: 0,
      sendMessage: async (_tabId: number, message: unknown) => ({ ok: true, value: reply(message as { type: string }) }),
      get: async () => ({ status: 'complete', url: t.currentUrl }),
      goForward: async () => {
        t.forwards++;
        t.currentUrl = url;
      },
      currentUrl: url,
    };
    return t;
  }
  const scripting = { executeScript: async () => undefined };

  it('refuses go_back on the first page without messaging the page', async () => {
    let acted = 0;
    const tabs = fakeTabs('http://a.test/', (m) => (m.type === 'page.act' ? (acted++, nav) : { url: 'http://a.test/', recording: false }));
    const driver = createTabPageDriver({ tabId: 1, tabs, scripting, contentScriptFiles: [], backDepth: () => 0 });
    expect(await driver.act({ type: 'go_back' })).toEqual({ ok: false, code: 'invalid_action', message: 'this is the first page of the task: going back would leave it' });
    expect(acted).toBe(0);
  });

  it('asks the guard with the tab\'s current URL', async () => {
    const asked: (string | undefined)[] = [];
    const tabs = fakeTabs('http://a.test/here', (m) => (m.type === 'page.act' ? nav : { url: 'http://a.test/here', recording: false }));
    const driver = createTabPageDriver({ tabId: 1, tabs, scripting, contentScriptFiles: [], backDepth: (url) => (asked.push(url), 0) });
    expect((await driver.act({ type: 'go_back' })).ok).toBe(false);
    expect(asked).toEqual(['http://a.test/here']);
  });

  it('undoes a back that left the web', async () => {
    const tabs = fakeTabs('http://a.test/', (m) => {
      if (m.type === 'page.act') {
        tabs.currentUrl = 'about:blank';
        return nav;
      }
      return { url: 'http://a.test/', recording: false };
    });
    const driver = createTabPageDriver({ tabId: 1, tabs, scripting, contentScriptFiles: [], backDepth: () => 1 });
    const result = await driver.act({ type: 'go_back' });
    expect(result).toEqual({ ok: false, code: 'invalid_action', message: 'going back left the task\'s pages; Apprentice went forward again' });
    expect(tabs.forwards).toBe(1);
  });

  it('fails at once with a clear message on a page it cannot read', async () => {
    const tabs = fakeTabs('chrome://newtab/', () => ({ url: '', recording: false }));
    const driver = createTabPageDriver({ tabId: 1, tabs, scripting, contentScriptFiles: [] });
    await expect(driver.observe({})).rejects.toThrow(/^Paused: the tab shows a browser page \(chrome:\)/);
  });

  it('follows a tab the click opened and says so in the result', async () => {
    const tabs = fakeTabs('http://a.test/', (m) => (m.type === 'page.act' ? stay : { url: 'http://a.test/', recording: false }));
    const followed: OpenedTab[] = [];
    const opened: OpenedTab = { tabId: 7, url: 'http://b.test/', at: 10 };
    const driver = createTabPageDriver({
      tabId: 1, tabs, scripting, contentScriptFiles: [], now: () => 10,
      openedSince: (tabId, since) => (tabId === 1 && since <= 10 ? opened : null),
      follow: async (tab) => {
        followed.push(tab);
      },
    });
    expect(await driver.act({ type: 'click', target: { kind: 'ref', ref: '3' } })).toEqual({
      ok: true, navigated: false, openedTab: { tabId: 7, url: 'http://b.test/' }, note: 'opened a new tab (http://b.test/); the agent follows it there',
    });
    expect(followed).toEqual([opened]);
    // Scrolling never opens tabs: nothing is followed.
    expect(await driver.act({ type: 'scroll', dx: 0, dy: 100 })).toEqual(stay);
    expect(followed).toHaveLength(1);
  });
});
