/**
 * The background routing of Show me and Take over with plain objects: a
 * step from the taught tab goes to teaching, any other to the demonstration
 * recorder; a step in a tab the person switched to ends teaching (and tells
 * that tab to stop recording); an unrecordable action ends teaching only.
 */
import { describe, expect, it } from 'vitest';
import { createContentHandlers } from '../../src/background/demonstrations.ts';
import { createTabTeachingPage, TeachingRouter, type TeachingRoutes } from '../../src/background/teaching.ts';
import type { RecordedAction } from '../../src/core/agent/demonstration-recorder.ts';
import type { Episode } from '../../src/core/episode/episode.ts';
import { dispatchContentRequest } from '../../src/protocol/validate.ts';

const URL_ = 'http://127.0.0.1:8080/form.html';
const step = { action: 'click(<button "Sign up">)', url: URL_, title: 'Form' };

function routes(taughtTab: number) {
  const log: string[] = [];
  const session: TeachingRoutes = {
    teachingIn: async (tabId) => (tabId === taughtTab ? ({ id: 'ep-1' } as Episode) : null),
    record: async (tabId) => {
      if (tabId !== taughtTab) return null;
      log.push(`record ${tabId}`);
      return {} as Episode;
    },
    unrecordable: async (tabId, what) => {
      if (tabId !== taughtTab) return null;
      log.push(`unrecordable ${tabId} ${what}`);
      return {} as Episode;
    },
    tabLoaded: async () => false,
    interrupt: async (id, reason) => { log.push(`interrupt ${id}: ${reason}`); return {} as Episode; },
  };
  return { session, log };
}

describe('teaching in the background', () => {
  it('routes the taught tab\'s steps to teaching and the others to the demonstration recorder', async () => {
    const { session, log } = routes(4);
    const router = new TeachingRouter(session);
    const demo: [number, RecordedAction][] = [];
    const handlers = createContentHandlers(async () => ({ record: async (tabId: number, s: RecordedAction) => { demo.push([tabId, s]); return null as never; } }), async () => router);
    expect(await dispatchContentRequest(handlers, { type: 'demo.step', ...step }, { tabId: 4, senderUrl: URL_ })).toEqual({ ok: true, value: { ok: true } });
    expect(await dispatchContentRequest(handlers, { type: 'demo.step', ...step }, { tabId: 5, senderUrl: URL_ })).toEqual({ ok: true, value: { ok: true } });
    expect(log).toEqual(['record 4']);
    expect(demo).toEqual([[5, step]]);
  });

  it('a step in a tab the person switched to ends teaching, and that tab is told to stop recording', async () => {
    const { session, log } = routes(4);
    const router = new TeachingRouter(session);
    const armed: number[] = [];
    await router.switchedTo(9, [{ episodeId: 'ep-1', tabId: 4 }], async (t) => { armed.push(t); });
    expect(armed).toEqual([9]);
    expect(await router.wants(9)).toBe(true);
    const handlers = createContentHandlers(async () => ({ record: async () => { throw new Error('not a demonstration'); } }), async () => router);
    const reply = await dispatchContentRequest(handlers, { type: 'demo.step', ...step }, { tabId: 9, senderUrl: URL_ });
    expect(reply).toEqual({ ok: false, error: { name: 'NotRecordingError', message: 'tab 9 is not being taught' } });
    expect(log).toEqual(['interrupt ep-1: the step was done in another tab; teach in the tab Apprentice works in']);
    expect(await router.wants(9)).toBe(false);
    // Switching back to the taught tab watches nothing.
    await router.switchedTo(4, [{ episodeId: 'ep-1', tabId: 4 }], async (t) => { armed.push(t); });
    expect(armed).toEqual([9]);
  });

  it('an unrecordable action ends teaching; in a demonstration it is skipped', async () => {
    const { session, log } = routes(4);
    const handlers = createContentHandlers(async () => ({ record: async () => null as never }), async () => new TeachingRouter(session));
    expect(await dispatchContentRequest(handlers, { type: 'demo.unrecordable', what: 'a right click' }, { tabId: 4, senderUrl: URL_ })).toEqual({ ok: true, value: { ok: true } });
    expect(await dispatchContentRequest(handlers, { type: 'demo.unrecordable', what: 'a right click' }, { tabId: 5, senderUrl: URL_ })).toEqual({ ok: true, value: { ok: true } });
    expect(log).toEqual(['unrecordable 4 a right click']);
    const bad = await dispatchContentRequest(handlers, { type: 'demo.unrecordable', what: '' }, { tabId: 4, senderUrl: URL_ });
    expect(bad).toMatchObject({ ok: false, error: { name: 'ProtocolError' } });
  });

  it('the tab page: on waits for the content script, off is one try, settle waits for the load', async () => {
    const sent: unknown[] = [];
    let status = 'loading';
    const page = createTabTeachingPage({
      demonstrationPage: { setRecording: async (tabId, on) => { sent.push(['demo', tabId, on]); }, tabUrl: async () => URL_ },
      tabs: {
        sendMessage: async (_t, message) => { sent.push(message); throw new Error('Could not establish connection. Receiving end does not exist.'); },
        get: async () => { const s = status; status = 'complete'; return { status: s, url: 'http://127.0.0.1:8080/next.html' }; },
      },
      settleMs: 1,
    });
    await page.setRecording(4, true);
    await expect(page.setRecording(4, false)).rejects.toThrow(/Receiving end/);
    expect(sent).toEqual([['demo', 4, true], { type: 'page.record', on: false }]);
    expect(await page.settle(4)).toBe('http://127.0.0.1:8080/next.html');
  });
});
