/**
 * Content script: wires the page agent to the background's page messages.
 * Only our own extension may ask (sender id checked); every request is
 * validated before it runs. Rendering happens in the background — the page
 * never sees provider settings or memory.
 */
import * as z from 'zod';
import browser from 'webextension-polyfill';
import { dispatchPageRequest, isPageRequestType, type PageHandlers } from '../protocol/validate.ts';
import { createPageAgent } from './page-agent.ts';

z.config({ jitless: true });

const agent = createPageAgent(window);

const handlers: PageHandlers<undefined> = {
  'page.observe': async (req) => agent.observe({ maxChars: req.maxChars, lastActedRef: req.lastActedRef }),
  'page.act': async (req) => agent.act(req.action),
  'page.highlight': async (req) => {
    agent.highlight(req.ref);
    return { ok: true as const };
  },
  'page.ping': async () => ({ url: location.href }),
};

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
