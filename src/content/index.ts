/**
 * Content script: wires the page agent to the background's page messages.
 * Only our own extension may ask (sender id checked); every request is
 * validated before it runs. Rendering happens in the background — the page
 * never sees provider settings or memory.
 */
import * as z from 'zod';
import browser from 'webextension-polyfill';
import { createContentClient, dispatchPageRequest, isPageRequestType, type PageHandlers } from '../protocol/validate.ts';
import { createPageAgent } from './page-agent.ts';
import { createDemonstrationRecorder } from './record/demonstration-recorder.ts';
import { createRecordingLink } from './record/recording-link.ts';
import { createElementPicker } from './pick/element-picker.ts';
import { ACTING_LABEL, clearMarks, drawBanner, drawFrame, labelHighlight, NEXT_STEP_LABEL, RECORDING_BANNER } from './marks/labelled-box.ts';
import type { Action } from '../core/page/action.ts';

z.config({ jitless: true });

const agent = createPageAgent(window);
const background = createContentClient((message) => browser.runtime.sendMessage(message));
const recorder = createDemonstrationRecorder({
  win: window,
  locate: (el) => agent.locate(el),
  observe: () => agent.observe({}),
  send: async (step) => {
    await background.request('demo.step', step);
  },
  onSendError: (err) => console.warn('[apprentice] a recorded step was not stored:', err),
  onUnrecordable: (what) => {
    background.request('demo.unrecordable', { what }).catch((err: unknown) => console.warn('[apprentice] could not report an unrecordable action:', err));
  },
});
const picker = createElementPicker({ win: window, locate: (el) => agent.locate(el), clearHighlight: () => agent.highlight(null) });
const link = createRecordingLink({
  connect: (info) => browser.runtime.connect(info),
  setInterval: (cb, ms) => window.setInterval(cb, ms),
  clearInterval: (handle) => window.clearInterval(handle as number),
  now: () => Date.now(),
});

const handlers: PageHandlers<undefined> = {
  'page.observe': async (req) => agent.observeSettled({ maxChars: req.maxChars, lastActedRef: req.lastActedRef, waitFor: req.waitFor ?? null, ...(req.task !== undefined ? { task: req.task } : {}) }),
  'page.act': async (req) => {
    // The person sees what the agent is about to touch, a moment before it does (issue 31).
    const ref = refOf(req.action);
    if (ref !== null) {
      agent.highlight(ref);
      labelHighlight(document, ACTING_LABEL);
      await new Promise((r) => setTimeout(r, ACT_NOTICE_MS));
    }
    try {
      return await agent.act(req.action, req.expect);
    } finally {
      if (ref !== null) {
        agent.highlight(null);
        clearMarks(document, 'next');
      }
    }
  },
  'page.highlight': async (req) => {
    agent.highlight(req.ref);
    labelHighlight(document, NEXT_STEP_LABEL);
    return { ok: true as const };
  },
  'page.pick': async (req) => {
    if (req.on) return picker.pick();
    picker.cancel();
    return { picked: false as const, reason: 'cancelled' as const };
  },
  'page.frame': async (req) => {
    if (req.on) drawFrame(document);
    else clearMarks(document, 'frame');
    return { ok: true as const };
  },
  'page.ping': async () => ({ url: location.href, recording: recorder.recording }),
  'page.record': async (req) => {
    if (req.on) {
      recorder.start();
      link.start();
      drawBanner(document, RECORDING_BANNER);
    } else {
      await recorder.stop();
      link.stop();
      clearMarks(document, 'banner');
    }
    return { ok: true as const };
  },
};

/** How long the target is shown before the agent acts on it. */
const ACT_NOTICE_MS = 200;
function refOf(action: Action): string | null {
  return 'target' in action && action.target?.kind === 'ref' ? action.target.ref : null;
}

// Re-injection (scripting.executeScript after an update) must not register twice.
const flag = '__apprenticeContentListener';
const scope = globalThis as typeof globalThis & { [flag]?: boolean };
if (!scope[flag]) {
  scope[flag] = true;
  browser.runtime.onMessage.addListener((message: unknown, sender: browser.Runtime.MessageSender) => {
    if (sender.id !== browser.runtime.id) return undefined;
    if (typeof message !== 'object' || message === null || !isPageRequestType((message as { type?: unknown }).type)) return undefined;
    return dispatchPageRequest(handlers, message, undefined);
  });
}
