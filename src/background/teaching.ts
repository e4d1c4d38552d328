/**
 * Background side of Show me and Take over: the chrome plumbing around the
 * core TeachingSession. The recorder is the demonstrations' own (the content
 * script's page.record / demo.step); this file says which tab's steps are
 * teaching, and turns the browser's events into the session's bad-input
 * stops: a page load in the taught tab, the tab closing, and a step done in
 * another tab. For the last one, a tab the person switches to while teaching
 * is armed too, so its first step is noticed (and ends teaching) instead of
 * silently doing something the episode never hears of.
 */
import type { DemonstrationPage, RecordedAction } from '../core/agent/demonstration-recorder.ts';
import { TEACHING_STOPS, TeachingSession, type TeachingDeps, type TeachingPage } from '../core/agent/teaching-session.ts';
import type { EpisodeStore } from '../core/episode/episode-store.ts';
import { systemClock, type Logger } from '../core/ports.ts';
import type { TabsSlice } from '../adapters/chrome/tab-page-driver.ts';
import { createPageClient } from '../protocol/validate.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A step from a tab nobody records (the content script stops recording when it gets this). */
export class NotRecordingError extends Error {
  override name = 'NotRecordingError';
}

/**
 * The tab side. Switching on waits for the content script (it retries, as a
 * demonstration does); switching off is one try, since the page may already
 * be gone (a shown click that navigated) and a fresh page does not record.
 */
export function createTabTeachingPage(deps: { demonstrationPage: DemonstrationPage; tabs: TabsSlice; settleMs?: number; loadTimeoutMs?: number }): TeachingPage {
  return {
    async setRecording(tabId, on) {
      if (on) return deps.demonstrationPage.setRecording(tabId, true);
      const client = createPageClient((message) => deps.tabs.sendMessage(tabId, message));
      await client.request('page.record', { on: false });
    },
    async settle(tabId) {
      // A click's navigation starts a moment after the click: wait for it, then for the load.
      await sleep(deps.settleMs ?? 300);
      const deadline = Date.now() + (deps.loadTimeoutMs ?? 10_000);
      for (;;) {
        const tab = await deps.tabs.get(tabId).catch(() => null);
        if (!tab) return null;
        if (tab.status === 'complete' || Date.now() > deadline) return tab.url ?? tab.pendingUrl ?? null;
        await sleep(100);
      }
    },
  };
}

export type TeachingRoutes = Pick<TeachingSession, 'teachingIn' | 'record' | 'unrecordable' | 'tabLoaded' | 'interrupt'>;

/**
 * Routes what the content scripts report while someone teaches. Which other
 * tabs are watched is kept in memory only: after a worker restart a step
 * there is simply not recorded (and the taught tab still is).
 */
export class TeachingRouter {
  /** Tab the person switched to → the episode being taught in another tab. */
  readonly #watched = new Map<number, string>();

  constructor(private readonly session: TeachingRoutes) {}

  /** Handles a recorded step if it belongs to teaching; false when it does not (then it may be a demonstration's). */
  async step(tabId: number, step: RecordedAction): Promise<boolean> {
    // Straight into the session's queue (no look-up first): a page load this step caused must come after it.
    if ((await this.session.record(tabId, step)) !== null) return true;
    return this.elsewhere(tabId);
  }

  async unrecordable(tabId: number, what: string): Promise<void> {
    if ((await this.session.unrecordable(tabId, what)) === null) await this.elsewhere(tabId);
  }

  async tabLoaded(tabId: number, url: string): Promise<boolean> {
    return this.session.tabLoaded(tabId, url);
  }

  async tabClosed(tabId: number): Promise<void> {
    this.#watched.delete(tabId);
    const episode = await this.session.teachingIn(tabId);
    if (episode) await this.session.interrupt(episode.id, TEACHING_STOPS.tabClosed);
  }

  /** The person switched to `tabId`: while an episode in `taughtTabId` is taught, that tab's steps are watched. */
  async switchedTo(tabId: number, taughtTabs: readonly { episodeId: string; tabId: number }[], arm: (tabId: number) => Promise<void>): Promise<void> {
    const taught = taughtTabs.find((t) => t.tabId !== tabId);
    if (!taught || taughtTabs.some((t) => t.tabId === tabId)) return;
    this.#watched.set(tabId, taught.episodeId);
    await arm(tabId);
  }

  /** Whether this tab's content script may hold the keep-awake port: it is taught or watched. */
  async wants(tabId: number): Promise<boolean> {
    return this.#watched.has(tabId) || (await this.session.teachingIn(tabId)) !== null;
  }

  /** A step in a watched tab ends the teaching it was watched for. */
  private async elsewhere(tabId: number): Promise<boolean> {
    const episodeId = this.#watched.get(tabId);
    if (episodeId === undefined) return false;
    this.#watched.delete(tabId);
    await this.session.interrupt(episodeId, TEACHING_STOPS.otherTab);
    throw new NotRecordingError(`tab ${tabId} is not being taught`);
  }
}

/**
 * Registers the tab-switch listener (at the top level of the worker). The
 * person switching to another tab of the taught tab's window arms that tab:
 * its first step ends teaching with a message.
 */
export function registerTeachingListeners(
  ready: () => Promise<{ router: TeachingRouter; taught(): Promise<{ episodeId: string; tabId: number }[]>; arm(tabId: number): Promise<void> }>,
  log: (message: string, data: Record<string, unknown>) => void,
): void {
  chrome.tabs.onActivated.addListener(({ tabId, windowId }) => {
    void (async () => {
      const { router, taught, arm } = await ready();
      const sameWindow: { episodeId: string; tabId: number }[] = [];
      for (const t of await taught()) {
        const tab = await chrome.tabs.get(t.tabId).catch(() => null);
        if (tab?.windowId === windowId) sameWindow.push(t);
      }
      await router.switchedTo(tabId, sameWindow, arm);
    })().catch((err: unknown) => log('watching another tab while teaching failed', { tabId, error: String(err) }));
  });
}

/**
 * The session, its router and what the tab-switch listener needs, wired once
 * (Show me and Take over reuse the demonstrations' recorder in the page).
 */
export function createTeaching(deps: { controller: TeachingDeps['controller']; episodes: EpisodeStore; logger: Logger; demonstrationPage: DemonstrationPage }) {
  const session = new TeachingSession({
    controller: deps.controller,
    episodes: deps.episodes,
    page: createTabTeachingPage({ demonstrationPage: deps.demonstrationPage, tabs: chrome.tabs }),
    clock: systemClock,
    logger: deps.logger,
  });
  return {
    session,
    router: new TeachingRouter(session),
    taught: async () => (await deps.episodes.unfinished()).flatMap((e) => (e.teaching && e.tabId !== null ? [{ episodeId: e.id, tabId: e.tabId }] : [])),
    // Best-effort: a tab that cannot record (a browser page) is simply not watched.
    arm: (tabId: number) => deps.demonstrationPage.setRecording(tabId, true).catch(() => undefined),
  };
}
