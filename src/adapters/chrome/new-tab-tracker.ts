/**
 * Tabs opened by a page (target=_blank links, window.open): Chrome reports
 * them with the opener's tab id. The tab driver asks, after an action, whether
 * the action's tab opened one, so the agent can follow it.
 */

/** The slice of chrome.tabs.onCreated this needs. */
export interface TabCreatedEvents {
  addListener(cb: (tab: { id?: number | undefined; openerTabId?: number | undefined; pendingUrl?: string | undefined; url?: string | undefined }) => void): void;
}

export interface OpenedTab { tabId: number; url: string; at: number }

/** Openings older than this are forgotten. */
const KEEP_MS = 60_000;

export class NewTabTracker {
  private readonly opened = new Map<number, OpenedTab[]>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Registers the listener; call once, synchronously, at the service worker's top level. */
  listen(events: TabCreatedEvents): void {
    events.addListener((tab) => {
      if (tab.id === undefined || tab.openerTabId === undefined) return;
      this.record(tab.openerTabId, { tabId: tab.id, url: tab.pendingUrl ?? tab.url ?? '', at: this.now() });
    });
  }

  record(openerTabId: number, tab: OpenedTab): void {
    const cutoff = this.now() - KEEP_MS;
    const list = (this.opened.get(openerTabId) ?? []).filter((t) => t.at >= cutoff);
    list.push(tab);
    this.opened.set(openerTabId, list);
  }

  /** The latest tab `openerTabId` opened at or after `since`, if any. */
  openedSince(openerTabId: number, since: number): OpenedTab | null {
    const list = this.opened.get(openerTabId) ?? [];
    for (let i = list.length - 1; i >= 0; i--) if (list[i]!.at >= since) return list[i]!;
    return null;
  }
}
