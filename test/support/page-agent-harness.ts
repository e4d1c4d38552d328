/**
 * The page agent the content script uses, bundled from src/content/inject-entry.ts
 * for plain Playwright pages, and the two calls the DOM-level e2e tests make:
 * observe the page, and run an action written in the action grammar (semantic
 * targets resolved on a fresh observation, as the agent does).
 */
import { resolve } from 'node:path';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import type { ActionResult } from '../../src/core/page/action.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import type { PageObservation } from '../../src/core/page/observation.ts';
import { resolveSemanticAction } from '../../src/core/page/semantic-action.ts';
import type { PageAgent } from '../../src/content/page-agent.ts';

declare global {
  // eslint-disable-next-line no-var
  var __apprentice: PageAgent | undefined;
}

const ROOT = resolve(import.meta.dirname, '../..');

/** The page-agent bundle's code, for `page.addInitScript({ content })`. */
export async function pageAgentCode(): Promise<string> {
  const out = await build({
    entryPoints: [`${ROOT}/src/content/inject-entry.ts`],
    bundle: true, format: 'iife', platform: 'browser', target: 'chrome116', write: false, logLevel: 'silent',
  });
  return out.outputFiles[0]!.text;
}

/** A full observation of the page (a budget large enough that nothing is cut). */
export const observeAll = (page: Page): Promise<PageObservation> =>
  page.evaluate(() => globalThis.__apprentice!.observe({ maxChars: 200_000 }));

/** A full observation once the page has settled, as the agent reads it before a step. */
export const observeSettled = (page: Page): Promise<PageObservation> =>
  page.evaluate(() => globalThis.__apprentice!.observeSettled({ maxChars: 200_000 }));

/** Parses an action, resolves semantic targets on a fresh observation, runs it in the page. */
export async function actByGrammar(page: Page, text: string): Promise<ActionResult> {
  const parsed = parseAction(text);
  if (!parsed.ok) throw parsed.error;
  const resolved = resolveSemanticAction(parsed.action, await observeAll(page));
  if (!resolved.ok) throw new Error(resolved.message);
  try {
    return await page.evaluate((a) => globalThis.__apprentice!.act(a), resolved.action);
  } catch (err) {
    // The document unloaded before act() returned: the action navigated (as bench/playwright-page-driver.ts reads it).
    if (!/Execution context was destroyed|navigat/i.test(String(err)) || page.isClosed()) throw err;
    return { ok: true, navigated: true };
  }
}
