/**
 * The ceiling check over the corpus through the built extension: the
 * solutions run through the real content script (isolated world, with the
 * main-world listener marks from the manifest), asked by the service worker
 * with the same page.observe / page.act messages the agent sends.
 */
import type { Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Action, ActionResult } from '../../src/core/page/action.ts';
import { ActionResultSchema } from '../../src/core/page/action.ts';
import { PageObservationSchema, type PageObservation } from '../../src/core/page/observation.ts';
import { launchWithExtension, type ExtensionBrowser } from '../support/chromium.ts';
import { startStaticServer, type StaticServer } from '../support/static-server.ts';
import { SITES_DIR, listCorpus, runSolution, type AgentHandle } from '../support/corpus.ts';

let browser: ExtensionBrowser;
let server: StaticServer;

beforeAll(async () => {
  server = await startStaticServer(SITES_DIR);
  browser = await launchWithExtension();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** One message to the content script of `tabId`, retried until it has started (at document_idle). */
async function ask(sw: Worker, tabId: number, message: Record<string, unknown>): Promise<unknown> {
  const reply = await sw.evaluate(async ([id, m]) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        return await chrome.tabs.sendMessage(id as number, m);
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }, [tabId, message] as const);
  const { ok, value, error } = reply as { ok: boolean; value: unknown; error?: unknown };
  if (!ok) throw new Error(`content script refused: ${JSON.stringify(error)}`);
  return value;
}

describe('control-pattern corpus through the built extension', () => {
  it('every scripted solution reaches its goal through the content script', async () => {
    const failures: string[] = [];
    const sw = browser.serviceWorker;
    for (const { file, solution } of listCorpus()) {
      const page = await browser.context.newPage();
      page.on('pageerror', () => {});
      const url = `${server.origin}/corpus/${file}`;
      await page.goto(url);
      const tabId = await sw.evaluate(async (u) => (await chrome.tabs.query({ url: u }))[0]!.id!, url);
      const agent: AgentHandle = {
        observe: async (): Promise<PageObservation> => PageObservationSchema.parse(await ask(sw, tabId, { type: 'page.observe', maxChars: 100_000, lastActedRef: null })),
        act: async (action: Action): Promise<ActionResult> => ActionResultSchema.parse(await ask(sw, tabId, { type: 'page.act', action })),
        goal: () => page.evaluate(() => document.documentElement.dataset['corpusDone'] ?? null),
      };
      const trace = await runSolution(agent, solution.steps, () => page.waitForTimeout(80));
      const goal = await agent.goal();
      if (goal !== solution.goal) failures.push(`${file}: ${trace.map((t) => `${t.step} → ${t.ok ? 'ok' : t.detail}`).join(' | ')}`);
      await page.close();
    }
    expect(failures).toEqual([]);
  }, 900_000);
});
