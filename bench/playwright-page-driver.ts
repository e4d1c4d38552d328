/**
 * PageDriver over a Playwright page, for the benchmark. It runs the same page
 * layer as the extension's content script: dist-inject/page-agent.js (built by
 * `npm run build`) is added as an init script, so every document the page
 * loads — after any navigation — has `globalThis.__apprentice`.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import type { Action, ActionResult } from '../src/core/page/action.ts';
import type { ObserveOptions, PageObservation } from '../src/core/page/observation.ts';
import type { PageDriver } from '../src/core/ports.ts';

export const PAGE_AGENT_BUNDLE = resolve(import.meta.dirname, '../dist-inject/page-agent.js');

/** Installs the page layer in every page and frame of the context. */
export async function installPageAgent(context: BrowserContext): Promise<void> {
  if (!existsSync(PAGE_AGENT_BUNDLE)) {
    throw new Error(`${PAGE_AGENT_BUNDLE} is missing: run \`npm run build\` first (npm run bench does).`);
  }
  await context.addInitScript({ path: PAGE_AGENT_BUNDLE });
}

const NAVIGATION_ERROR = /Execution context was destroyed|navigation|Target page, context or browser has been closed|frame was detached|Cannot find context/i;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface PageAgentGlobal {
  __apprentice?: {
    observe(options: ObserveOptions): PageObservation;
    act(action: Action): Promise<ActionResult>;
  };
}

export function createPlaywrightPageDriver(page: Page, options: { timeoutMs?: number } = {}): PageDriver {
  const timeoutMs = options.timeoutMs ?? 15_000;

  async function settle(): Promise<void> {
    await page.waitForLoadState('load', { timeout: timeoutMs }).catch(() => undefined);
  }

  return {
    async observe(observeOptions: ObserveOptions): Promise<PageObservation> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        await settle();
        try {
          // A document that has not finished loading (a navigation just
          // committed) is not observed: its scripts may not have rendered yet.
          const observation = await page.evaluate((opts) => {
            const agent = (globalThis as PageAgentGlobal).__apprentice;
            return agent && document.readyState === 'complete' ? agent.observe(opts) : null;
          }, observeOptions);
          if (observation) return observation;
        } catch (err) {
          // A navigation started between the load wait and the snapshot: wait for it.
          if (!NAVIGATION_ERROR.test(String(err)) || page.isClosed()) throw err;
        }
        if (Date.now() > deadline) throw new Error(`the page agent is not available on ${page.url()}`);
        await sleep(25);
      }
    },

    async act(action: Action): Promise<ActionResult> {
      if (page.isClosed()) return { ok: false, code: 'no_page', message: 'the page is closed' };
      try {
        const result = await page.evaluate((a) => {
          const agent = (globalThis as PageAgentGlobal).__apprentice;
          if (!agent) return { ok: false as const, code: 'no_page' as const, message: 'the page agent is not loaded' };
          return agent.act(a);
        }, action);
        if (result.ok && result.navigated) {
          await sleep(50);
          await settle();
        }
        return result;
      } catch (err) {
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
