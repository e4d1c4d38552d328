/**
 * Navigation: goto, back and forward, and the watcher that notices a
 * navigation starting while any action runs (the document is about to end,
 * so the action answers at once).
 */
import type { Action } from '../../core/page/action.ts';
import { ActionFailure, sleep, type Run } from './act-context.ts';

/** How long goto/back/forward wait for the navigation to start before reporting. */
const NAVIGATION_WAIT_MS = 600;

export function safeHref(win: Window): string {
  try {
    return win.location.href;
  } catch {
    return '';
  }
}

/** The Navigation API (Chromium ≥ 102): its `navigate` event fires synchronously when a navigation starts. */
function navigationApi(win: Window): EventTarget | null {
  const n = (win as unknown as { navigation?: EventTarget }).navigation;
  return n && typeof n.addEventListener === 'function' ? n : null;
}

/** Listens for a navigation while an action runs; `started` resolves when one begins. */
export function watchNavigation(run: Run): { started: Promise<void>; stop(): void } {
  const { win } = run;
  let signal: () => void = () => {};
  const started = new Promise<void>((resolve) => (signal = resolve));
  const onNavigate = () => {
    run.navigated = true;
    signal();
  };
  const events = ['beforeunload', 'pagehide', 'hashchange', 'popstate'] as const;
  for (const e of events) win.addEventListener(e, onNavigate);
  const nav = navigationApi(win);
  nav?.addEventListener('navigate', onNavigate);
  return {
    started,
    stop: () => {
      for (const e of events) win.removeEventListener(e, onNavigate);
      nav?.removeEventListener('navigate', onNavigate);
    },
  };
}

export async function navigate(action: Extract<Action, { type: 'goto' | 'go_back' | 'go_forward' }>, run: Run): Promise<string | undefined> {
  const { win } = run;
  if (action.type === 'goto') {
    let url: URL;
    try {
      url = new URL(action.url, safeHref(win) || undefined);
    } catch {
      throw new ActionFailure('invalid_action', `not a URL: ${JSON.stringify(action.url)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new ActionFailure('invalid_action', `only http(s) URLs can be opened, not ${url.protocol}`);
    }
    win.location.assign(url.href);
    await sleep(win, NAVIGATION_WAIT_MS);
    return run.navigated ? undefined : 'no navigation started';
  }
  if (action.type === 'go_back') win.history.back();
  else win.history.forward();
  await sleep(win, NAVIGATION_WAIT_MS);
  return run.navigated ? undefined : `history did not move (no ${action.type === 'go_back' ? 'earlier' : 'later'} page?)`;
}
