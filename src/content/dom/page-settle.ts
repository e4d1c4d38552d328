/**
 * Waiting for a page to settle before it is read or acted on. Pages keep
 * changing after load (scripts replace server-rendered controls with their
 * own, lists fill in): a snapshot taken mid-change names elements that are
 * about to go, and an action taken mid-change lands on one of them.
 *
 * Generic signals only, no framework names: the document has loaded, and no
 * DOM mutation for a quiet period — anywhere, before a snapshot; touching the
 * target (its subtree or an ancestor's children), before an action, so a
 * ticking clock elsewhere does not hold a click up. Before a snapshot, the
 * page's own requests count as changes too (a fetch or XHR to its origin that
 * finished within the quiet period: a script still loading what it will
 * render), and so does one still in flight (the main-world script reports
 * starts and ends: listener-marks.iife.ts), and a finite animation still
 * running. Bounded: after `maxMs` the caller goes on and says so.
 */
import { OVERLAY_ATTRIBUTE } from '../act/highlight.ts';

/** No mutation for this long counts as settled: longer than a frame or two of a script's render, short enough to go unnoticed. */
export const SETTLE_QUIET_MS = 150;
/** The longest a snapshot or an action waits for the page. */
export const SETTLE_MAX_MS = 1_500;

/** Our own marks (listener marks, the highlight box) are not the page changing. */
const OWN_ATTRIBUTES = new Set(['data-apprentice-listens', OVERLAY_ATTRIBUTE]);

export interface SettleReport {
  settled: boolean;
  waitedMs: number;
}

/**
 * When the page last changed, kept from the moment the page agent starts, so
 * a wait knows what happened just before it was asked: anywhere, or touching
 * one element (the changes of the last quiet period are kept for that).
 */
export interface ChangeClock {
  lastChange(near?: Element | null): number;
  /** The page's requests to its own origin still in flight, as the main-world script reports them (0 when it cannot). */
  requestsInFlight?(): number;
}

/** The events the main-world script sends when the page's own request starts and ends (listener-marks.iife.ts). */
export const REQUEST_START = 'apprentice-request-start';
export const REQUEST_END = 'apprentice-request-end';

/** Changes kept for `lastChange(near)`; past this many in one quiet period, any change counts as near. */
const MAX_RECENT = 256;

function ownMutation(record: MutationRecord): boolean {
  if (record.type === 'attributes') return record.attributeName !== null && OWN_ATTRIBUTES.has(record.attributeName);
  if (record.type !== 'childList') return false;
  const nodes = [...Array.from(record.addedNodes), ...Array.from(record.removedNodes)];
  return nodes.length > 0 && nodes.every((n) => n.nodeType === 1 && (n as Element).hasAttribute(OVERLAY_ATTRIBUTE));
}

function observeMutations(win: Window, onChange: (records: MutationRecord[]) => void): MutationObserver | null {
  const Observer = (win as Window & { MutationObserver?: typeof MutationObserver }).MutationObserver;
  if (typeof Observer !== 'function') return null;
  const observer = new Observer((records) => {
    const page = records.filter((r) => !ownMutation(r));
    if (page.length > 0) onChange(page);
  });
  observer.observe(win.document, { subtree: true, childList: true, attributes: true, characterData: true });
  return observer;
}

/** The mutation touched `near`: inside it, or a change of one of its ancestors (a replaced form removes it). */
function touches(record: Pick<MutationRecord, 'type' | 'target'>, near: Element): boolean {
  const target = record.target;
  return target === near || near.contains(target) || target.contains(near) || (record.type === 'childList' && !near.isConnected);
}

/** What a script of the page fetches from its own origin: its data, not its images or styles. */
const SCRIPT_REQUESTS = new Set(['fetch', 'xmlhttprequest', 'beacon']);

/** Calls `onRequest` when a fetch or XHR of the page to its own origin finishes; null when the browser cannot tell. */
function observeOwnRequests(win: Window, onRequest: () => void): PerformanceObserver | null {
  const Observer = (win as Window & { PerformanceObserver?: typeof PerformanceObserver }).PerformanceObserver;
  if (typeof Observer !== 'function') return null;
  const origin = win.location.origin;
  const observer = new Observer((list) => {
    const own = list.getEntries().some((e) => {
      const initiator = (e as PerformanceResourceTiming).initiatorType;
      if (!SCRIPT_REQUESTS.has(initiator)) return false;
      try {
        return new URL(e.name, win.location.href).origin === origin;
      } catch {
        return false;
      }
    });
    if (own) onRequest();
  });
  try {
    observer.observe({ type: 'resource' });
  } catch {
    return null;
  }
  return observer;
}

/** A finite animation (a transition, an entrance) is still running: its end is a change still to come. Endless ones (spinners, tickers) are not waited for. */
function animating(win: Window): boolean {
  const doc = win.document as Document & { getAnimations?: () => Animation[] };
  if (typeof doc.getAnimations !== 'function') return false;
  return doc.getAnimations().some((a) => a.playState === 'running' && Number.isFinite(Number(a.effect?.getComputedTiming().endTime ?? Infinity)));
}

/** Starts keeping the time of the page's changes (its load counts as one). */
export function trackChanges(win: Window): ChangeClock {
  const now = () => win.performance.now();
  let last = now();
  let lastRequest = -Infinity;
  observeOwnRequests(win, () => {
    lastRequest = now();
  });
  let inFlight = 0;
  win.document.addEventListener?.(REQUEST_START, () => {
    inFlight++;
  });
  win.document.addEventListener?.(REQUEST_END, () => {
    inFlight = Math.max(0, inFlight - 1); // a start before this script ran was not counted
    lastRequest = now();
  });
  let overflowAt = -Infinity;
  let recent: { at: number; type: MutationRecordType; target: Node }[] = [];
  observeMutations(win, (records) => {
    last = now();
    recent = recent.filter((r) => last - r.at < SETTLE_QUIET_MS);
    for (const r of records) recent.push({ at: last, type: r.type, target: r.target });
    if (recent.length > MAX_RECENT) {
      overflowAt = last;
      recent = [];
    }
  });
  win.addEventListener('load', () => {
    last = Math.max(last, now());
    overflowAt = last; // the load is a change of everything
  });
  return {
    requestsInFlight: () => inFlight,
    lastChange: (near) => {
      if (near == null) return Math.max(last, lastRequest);
      let at = overflowAt;
      for (const r of recent) if (r.at > at && touches(r, near)) at = r.at;
      return at;
    },
  };
}

/**
 * Resolves once the document has loaded and nothing (or nothing touching
 * `near`) changed for `quietMs`, or after `maxMs` with `settled: false`.
 * Changes before the call are known from `clock`.
 */
export function waitUntilSettled(
  win: Window,
  clock: ChangeClock,
  options: { near?: Element | null; quietMs?: number; maxMs?: number } = {},
): Promise<SettleReport> {
  const quietMs = options.quietMs ?? SETTLE_QUIET_MS;
  const maxMs = options.maxMs ?? SETTLE_MAX_MS;
  const near = options.near ?? null;
  const now = () => win.performance.now();
  const started = now();
  let last = clock.lastChange(near);
  return new Promise((resolve) => {
    const observer = observeMutations(win, (records) => {
      if (near === null || records.some((r) => touches(r, near))) last = now();
    });
    // The page's own requests and animations hold up a read of the whole page, not an action on one element.
    const requests = near === null ? observeOwnRequests(win, () => { last = now(); }) : null;
    const check = () => {
      const t = now();
      if (near === null) {
        // A request that ended meanwhile (the clock hears of it), one still in flight, a finite animation running.
        last = Math.max(last, clock.lastChange(null));
        if ((clock.requestsInFlight?.() ?? 0) > 0 || animating(win)) last = t;
      }
      const loaded = win.document.readyState === 'complete';
      const quietFor = t - last;
      if ((loaded && quietFor >= quietMs) || t - started >= maxMs) {
        observer?.disconnect();
        requests?.disconnect();
        resolve({ settled: loaded && quietFor >= quietMs, waitedMs: Math.round(t - started) });
        return;
      }
      const untilQuiet = loaded ? quietMs - quietFor : 25;
      win.setTimeout(check, Math.max(5, Math.min(untilQuiet, maxMs - (t - started))));
    };
    check();
  });
}

/** The sentence a step record carries when the page never settled. */
export const stillChanging = (report: SettleReport): string => `the page was still changing after ${(report.waitedMs / 1000).toFixed(1)} s`;
