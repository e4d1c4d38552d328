/**
 * A control whose change submits its form (a filter select, an "archived"
 * checkbox): the navigation starts after the action's events, so the action
 * must wait for it and say it navigated — otherwise the next observation
 * races the navigation and reads the old page (the benign filter-select miss
 * of bench:trust). Real Chromium, the page agent the content script uses, a
 * page written for this test.
 */
import { resolve } from 'node:path';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ActionResult } from '../../src/core/page/action.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import type { PageObservation } from '../../src/core/page/observation.ts';
import { resolveSemanticAction } from '../../src/core/page/semantic-action.ts';
import type { PageAgent } from '../../src/content/page-agent.ts';
import { launchPlain } from '../support/chromium.ts';
import { startStaticServer, type StaticServer } from '../support/static-server.ts';

declare global {
  // eslint-disable-next-line no-var
  var __apprentice: PageAgent | undefined;
}

const ROOT = resolve(import.meta.dirname, '../..');
let server: StaticServer;
let browser: Browser;
let page: Page;
let agentCode: string;

beforeAll(async () => {
  const out = await build({ entryPoints: [`${ROOT}/src/content/inject-entry.ts`], bundle: true, format: 'iife', platform: 'browser', target: 'chrome116', write: false, logLevel: 'silent' });
  agentCode = out.outputFiles[0]!.text;
  server = await startStaticServer(`${ROOT}/test/fixtures/sites`);
  browser = await launchPlain();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

beforeEach(async () => {
  await page?.close();
  page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  await page.addInitScript({ content: agentCode });
  await page.goto(`${server.origin}/actions/change-submits.html`);
});

const observe = (): Promise<PageObservation> => page.evaluate(() => globalThis.__apprentice!.observe({ maxChars: 200_000 }));

async function act(text: string): Promise<ActionResult> {
  const parsed = parseAction(text);
  if (!parsed.ok) throw parsed.error;
  const resolved = resolveSemanticAction(parsed.action, await observe());
  if (!resolved.ok) throw new Error(resolved.message);
  return page.evaluate((a) => globalThis.__apprentice!.act(a), resolved.action);
}

describe('a change that submits the form', () => {
  it('select_option whose change submits: navigated, and the next page is the result', async () => {
    expect(await act('select_option(<combobox "Status">, "Shipped")')).toEqual({ ok: true, navigated: true });
    await page.waitForURL('**/actions/target.html?status=Shipped');
  });

  it('a checkbox whose change requests a submit: navigated', async () => {
    expect(await act('check(<checkbox "Show archived">)')).toEqual({ ok: true, navigated: true });
    await page.waitForURL('**/actions/target.html?archived=yes');
  });

  it('a submit the change schedules for a moment later: navigated', async () => {
    expect(await act('select_option(<combobox "Sort by">, "Oldest")')).toEqual({ ok: true, navigated: true });
    await page.waitForURL('**/actions/target.html?sort=Oldest');
  });

  it('a change that does not navigate: not navigated, the page reacted', async () => {
    expect(await act('select_option(<combobox "Page size">, "50")')).toEqual({ ok: true, navigated: false });
    expect(await page.textContent('#size-out')).toBe('50');
  });
});
