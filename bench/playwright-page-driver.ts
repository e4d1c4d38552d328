/**
 * PageDriver over a Playwright page, for the benchmark. It runs the same page
 * layer as the extension's content script, split the same way: the listener
 * marks (dist-inject/listener-marks.js) in the page's main world from the
 * start of every document, and observe/act (dist-inject/page-agent-isolated.js)
 * in an isolated world (isolated-page-agent.ts), where the page's scripts
 * cannot forge what the agent sees or does. Both are built by `npm run build`.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import type { TargetFingerprint } from '../src/core/page/target-fingerprint.ts';
import type { Action, ActionResult } from '../src/core/page/action.ts';
import type { ObserveOptions, PageObservation } from '../src/core/page/observation.ts';
import type { PageDriver } from '../src/core/ports.ts';
import { BACK_LEFT_THE_WEB, unreadablePageReason } from '../src/adapters/chrome/tab-page-driver.ts';
import { attachIsolatedPageAgent, type IsolatedPageAgent } from './isolated-page-agent.ts';

export const LISTENER_MARKS_BUNDLE = resolve(import.meta.dirname, '../dist-inject/listener-marks.js');

/**
 * Installs the main-world half of the page layer (the listener marks) in every
 * page and frame of the context; the driver attaches the agent itself.
 */
export async function installPageAgent(context: BrowserContext): Promise<void> {
  if (!existsSync(LISTENER_MARKS_BUNDLE)) {
    throw new Error(`${LISTENER_MARKS_BUNDLE} is missing: run \`npm run build\` first (npm run bench does).`);
  }
  await context.addInitScript({ path: LISTENER_MARKS_BUNDLE });
}

const NAVIGATION_ERROR = /Execution context was destroyed|navigation|navigated|Target page, context or browser has been closed|frame was detached|Cannot find context/i;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The page driver, plus where a Playwright selector's element is in the agent's snapshot (the benchmark's teacher). */
export interface PlaywrightPageDriver extends PageDriver {
  locate(selector: string, nth: number): Promise<{ ref: string } | { missing: string }>;
}

/** The attribute that hands an element from Playwright's world to the agent's isolated world for one lookup. */
const HANDOFF = 'data-apprentice-teacher-handoff';

/**
 * `settleOff`: the refusals figure's mutant (`npm run bench -- --mutant settle-off`): the page is read
 * as soon as it has loaded, without the settle wait (content/dom/page-settle.ts), as before issue 34.
 */
export function createPlaywrightPageDriver(page: Page, options: { timeoutMs?: number; settleOff?: boolean } = {}): PlaywrightPageDriver {
  const timeoutMs = options.timeoutMs ?? 15_000;
  let attached: Promise<IsolatedPageAgent> | null = null;
  const agent = () => (attached ??= attachIsolatedPageAgent(page));

  async function settle(): Promise<void> {
    await page.waitForLoadState('load', { timeout: timeoutMs }).catch(() => undefined);
  }

  return {
    async locate(selector: string, nth: number) {
      await settle();
      const locator = page.locator(selector).nth(nth);
      try {
        await locator.waitFor({ state: 'attached', timeout: 2_000 });
      } catch {
        return { missing: `no element matches ${selector}${nth ? ` (nth ${nth})` : ''}` };
      }
      const token = `t${Date.now()}${Math.random().toString(36).slice(2)}`;
      await locator.evaluate((el, [name, value]) => el.setAttribute(name!, value!), [HANDOFF, token] as const);
      // The same page agent (and ref registry) the observations come from: the element itself or its nearest control.
      const ref = await (await agent()).evaluate(([name, value]: readonly [string, string]): string | null => {
        const el = document.querySelector(`[${name}="${value}"]`);
        if (!el) return null;
        el.removeAttribute(name);
        return globalThis.__apprentice?.locate(el)?.ref ?? null;
      }, [HANDOFF, token] as const);
      return ref === null ? { missing: `${selector} has no ref in the agent's snapshot` } : { ref };
    },

    async observe(observeOptions: ObserveOptions): Promise<PageObservation> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        await settle();
        try {
          // A document that has not finished loading (a navigation just
          // committed) is not observed: its scripts may not have rendered yet.
          // Settled as the content script does it (content/dom/page-settle.ts), so both read the same moment.
          const observation = await (await agent()).evaluate(([opts, settled]: readonly [ObserveOptions, boolean]): Promise<PageObservation> | PageObservation | null => {
            const pageAgent = globalThis.__apprentice;
            if (!pageAgent || document.readyState !== 'complete') return null;
            return settled ? pageAgent.observeSettled(opts) : pageAgent.observe(opts);
          }, [observeOptions, options.settleOff !== true] as const);
          if (observation) return observation;
        } catch (err) {
          // A navigation started between the load wait and the snapshot: wait for it.
          if (!NAVIGATION_ERROR.test(String(err)) || page.isClosed()) throw err;
        }
        if (Date.now() > deadline) throw new Error(`the page agent is not available on ${page.url()}`);
        await sleep(25);
      }
    },

    async act(action: Action, _signal?: AbortSignal, expect?: TargetFingerprint): Promise<ActionResult> {
      if (page.isClosed()) return { ok: false, code: 'no_page', message: 'the page is closed' };
      const before = page.url();
      try {
        // `expect`: the element as approved; the page layer refuses when it is not that any more (as in the extension).
        const result = await (await agent()).evaluate(({ a, e }: { a: Action; e: TargetFingerprint | null }): ActionResult | Promise<ActionResult> => {
          const pageAgent = globalThis.__apprentice;
          if (!pageAgent) return { ok: false, code: 'no_page', message: 'the page agent is not loaded' };
          return pageAgent.act(a, e ?? undefined);
        }, { a: action, e: expect ?? null });
        if (result.ok && result.navigated) {
          // A history step commits after act() returns: until it does, 'load' is the old page's (a race seen in CI).
          if (action.type === 'go_back') await page.waitForURL((u) => u.href !== before, { timeout: 2_000, waitUntil: 'commit' }).catch(() => undefined);
          await sleep(50);
          await settle();
        }
        // As the extension's tab driver does: a back that left the web pages
        // (about:blank before the task's first page) is undone, not stayed in.
        if (action.type === 'go_back' && result.ok && unreadablePageReason(page.url()) !== null) {
          await page.goForward({ timeout: timeoutMs }).catch(() => undefined);
          await settle();
          return { ok: false, code: 'invalid_action', message: BACK_LEFT_THE_WEB };
        }
        return result;
      } catch (err) {
        // No document to act in (gone before the call, twice): the action did not run.
        if (/Cannot find context/i.test(String(err))) return { ok: false, code: 'no_page', message: 'the page changed before the action could run' };
        // The document unloaded before act() returned: the action navigated.
        if (NAVIGATION_ERROR.test(String(err)) && !page.isClosed()) {
          await sleep(50);
          await settle();
          return { ok: true, navigated: true, note: 'the page navigated' };
        }
        throw err;
      }
    },
  };
}
