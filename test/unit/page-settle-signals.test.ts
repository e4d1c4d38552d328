/**
 * The settle wait's generic signals besides mutations (issue 34, part 1):
 * a fetch or XHR of the page to its own origin that just finished, and a
 * finite animation still running, hold up a read of the whole page; another
 * origin's request, an image, an endless animation, and any of them around
 * an action's target, do not. A fake window with its own clock, so every
 * time below is exact (quiet period 150 ms).
 */
import { describe, expect, it } from 'vitest';
import { trackChanges, waitUntilSettled, type ChangeClock } from '../../src/content/dom/page-settle.ts';

type Entries = { getEntries(): { name: string; initiatorType: string }[] };

class FakeWindow {
  t = 0;
  timers: { at: number; fn: () => void }[] = [];
  observers: ((list: Entries) => void)[] = [];
  animationEnds: number[] = [];
  performance = { now: () => this.t };
  location = { origin: 'http://wiki.test', href: 'http://wiki.test/edit' };
  events = new Map<string, (() => void)[]>();
  document = {
    addEventListener: (type: string, fn: () => void) => void this.events.set(type, [...(this.events.get(type) ?? []), fn]),
    readyState: 'complete',
    getAnimations: () => this.animationEnds.filter((end) => this.t < end).map((end) => ({ playState: 'running', effect: { getComputedTiming: () => ({ endTime: end }) } })),
  };
  PerformanceObserver: unknown;
  constructor() {
    const observers = this.observers;
    this.PerformanceObserver = class {
      constructor(private readonly cb: (list: Entries) => void) {}
      observe() { observers.push(this.cb); }
      disconnect() { observers.splice(observers.indexOf(this.cb), 1); }
    };
  }
  setTimeout = (fn: () => void, ms: number) => { this.timers.push({ at: this.t + ms, fn }); return this.timers.length; };
  addEventListener() {}
  /** Runs the clock forward to `to`, firing timers in order. */
  advance(to: number) {
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (!next || next.at > to) break;
      this.timers.shift();
      this.t = next.at;
      next.fn();
    }
    this.t = to;
  }
  /** What the main-world script sends when a request of the page to its own origin starts or ends. */
  send(type: 'apprentice-request-start' | 'apprentice-request-end') {
    for (const fn of this.events.get(type) ?? []) fn();
  }
  request(url: string, initiatorType = 'fetch') {
    for (const cb of [...this.observers]) cb({ getEntries: () => [{ name: url, initiatorType }] });
  }
}

const asWindow = (w: FakeWindow) => w as unknown as Window;

async function settledAfter(w: FakeWindow, clock: ChangeClock, options: { near?: Element; during?: () => void } = {}) {
  const wait = waitUntilSettled(asWindow(w), clock, options.near ? { near: options.near } : {});
  options.during?.();
  w.advance(w.t + 2_000);
  return wait;
}

describe('the page\'s own requests', () => {
  it('a fetch to its origin that just finished holds a snapshot until 150 ms after it', async () => {
    const w = new FakeWindow();
    const clock = trackChanges(asWindow(w));
    w.advance(100);
    w.request('http://wiki.test/api/page?id=3');
    w.advance(120);
    // Quiet since 100: settled at 250, 130 ms after the wait began.
    expect(await settledAfter(w, clock)).toEqual({ settled: true, waitedMs: 130 });
  });

  it('one still in flight holds a snapshot until it ended and 150 ms passed', async () => {
    const w = new FakeWindow();
    const clock = trackChanges(asWindow(w));
    w.advance(100);
    w.send('apprentice-request-start');
    w.advance(120);
    const wait = waitUntilSettled(asWindow(w), clock);
    w.advance(400);
    w.send('apprentice-request-end');
    w.advance(3_000);
    // Checks at 120, 270 (in flight), 420 (ended at 400: 20 ms quiet), then 550: 430 ms after 120.
    expect(await wait).toEqual({ settled: true, waitedMs: 430 });
    expect(clock.requestsInFlight?.()).toBe(0);
  });

  it('one that finishes during the wait moves the end along', async () => {
    const w = new FakeWindow();
    const clock = trackChanges(asWindow(w));
    w.advance(120); // the load at 0: quiet until 150
    const wait = waitUntilSettled(asWindow(w), clock);
    w.advance(140);
    w.request('/api/more', 'xmlhttprequest');
    w.advance(3_000);
    // The XHR at 140: settled at 290, 170 ms after 120.
    expect(await wait).toEqual({ settled: true, waitedMs: 170 });
  });

  it('another origin\'s request, an image of its own, or a wait around an action\'s target do not count', async () => {
    for (const [url, initiator] of [['http://cdn.test/x.json', 'fetch'], ['http://wiki.test/logo.png', 'img']] as const) {
      const w = new FakeWindow();
      const clock = trackChanges(asWindow(w));
      w.advance(100);
      w.request(url, initiator);
      w.advance(120);
      // Only the load at 0 counts: settled at 150.
      expect(await settledAfter(w, clock)).toEqual({ settled: true, waitedMs: 30 });
    }
    const w = new FakeWindow();
    const clock = trackChanges(asWindow(w));
    w.advance(100);
    w.request('http://wiki.test/api/page');
    w.advance(120);
    // Around an element nothing touched: no wait at all.
    expect(await settledAfter(w, clock, { near: {} as Element })).toEqual({ settled: true, waitedMs: 0 });
  });
});

describe('animations', () => {
  const never: ChangeClock = { lastChange: () => -Infinity };

  it('a finite one still running holds a snapshot until it ended and 150 ms passed', async () => {
    const w = new FakeWindow();
    w.animationEnds = [300];
    // Checks at 0 and 150 see it running; at 300 it has ended and the last change (150) is 150 ms old.
    expect(await settledAfter(w, never)).toEqual({ settled: true, waitedMs: 300 });
  });

  it('an endless one (a spinner) is not waited for', async () => {
    const w = new FakeWindow();
    w.animationEnds = [Infinity];
    expect(await settledAfter(w, never)).toEqual({ settled: true, waitedMs: 0 });
  });
});
