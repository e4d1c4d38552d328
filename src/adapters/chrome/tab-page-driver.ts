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
 *
 * The message channel itself (waits, injection, navigation cutting a reply
 * off) is tab-channel.ts.
 */
import type { Action, ActionResult } from '../../core/page/action.ts';
import { kindsWhere } from '../../core/page/action-vocabulary.ts';
import { TASK_TEXT_MAX, type ObserveOptions, type PageObservation } from '../../core/page/observation.ts';
import type { TargetFingerprint } from '../../core/page/target-fingerprint.ts';
import type { PageDriver } from '../../core/ports.ts';
import { maskObservation } from '../../core/secrets/mask-secrets.ts';
import type { OpenedTab } from './new-tab-tracker.ts';
import { sleep, TabChannel, unreadablePageReason, withTimeout, type ScriptingSlice, type TabsSlice } from './tab-channel.ts';

export { PageTimeoutError, PageUnavailableError, TabGoneError, unreadablePageReason, type ScriptingSlice, type TabsSlice } from './tab-channel.ts';

/** How long after an action a new tab it opened is waited for (Chrome reports it asynchronously). */
const NEW_TAB_WAIT_MS = [0, 100, 250];
/** Actions that can open a tab. */
const MAY_OPEN_TAB = kindsWhere('mayOpenTab');

/** What a go_back that left the web pages returns, after going forward again (the benchmark's driver says the same). */
export const BACK_LEFT_THE_WEB = 'going back left the task\'s pages; Apprentice went forward again';

export interface TabPageDriverDeps {
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
  /** The install key secret form values are digested under (form-key.ts); absent: they are masked only. */
  formKey?: () => Promise<string>;
}

export function createTabPageDriver(deps: TabPageDriverDeps): PageDriver {
  const { tabId, tabs } = deps;
  const channel = new TabChannel(tabId, tabs, deps.scripting, deps.contentScriptFiles);
  const timeoutMs = deps.timeoutMs ?? 15_000;
  const now = deps.now ?? Date.now;

  return {
    async observe(options: ObserveOptions): Promise<PageObservation> {
      const deadline = Date.now() + timeoutMs;
      await channel.waitForLoad(deadline);
      await channel.ensureContentScript(deadline);
      const observation = await withTimeout(
        channel.client.request('page.observe', { maxChars: options.maxChars ?? 12_000, lastActedRef: options.lastActedRef ?? null, waitFor: options.waitFor ?? null, ...(options.task !== undefined ? { task: options.task.slice(0, TASK_TEXT_MAX) } : {}) }),
        Math.max(1, deadline - Date.now()),
        'observing the page',
      );
      // Secrets never reach a prompt or a store, whatever the page layer sent; a form's secret values only as keyed digests.
      return maskObservation(observation, deps.formKey ? await deps.formKey() : undefined);
    },
    async act(action: Action, _signal?: AbortSignal, expect?: TargetFingerprint): Promise<ActionResult> {
      const deadline = Date.now() + timeoutMs;
      if (action.type === 'go_back' && deps.backDepth !== undefined
        && deps.backDepth(await tabs.get(tabId).then((t) => t.url, () => undefined)) <= 0) {
        return { ok: false, code: 'invalid_action', message: 'this is the first page of the task: going back would leave it' };
      }
      await channel.ensureContentScript(deadline);
      const since = now();
      const result = await channel.runAction(action, deadline, expect);
      if (action.type === 'go_back' && result.ok) {
        // A back that left the web (about:blank, a browser page) is undone.
        const reason = unreadablePageReason(await channel.currentUrl().catch(() => undefined));
        if (reason !== null && tabs.goForward !== undefined) {
          await tabs.goForward(tabId).catch(() => undefined);
          await channel.waitForLoad(deadline);
          return { ok: false, code: 'invalid_action', message: BACK_LEFT_THE_WEB };
        }
      }
      return MAY_OPEN_TAB.has(action.type) ? followNewTab(deps, result, since) : result;
    },
  };
}

/** Follows a tab the action opened, when the driver can: the result says where the episode went. */
async function followNewTab(deps: TabPageDriverDeps, result: ActionResult, since: number): Promise<ActionResult> {
  const { tabId, tabs } = deps;
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
