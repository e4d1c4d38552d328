/**
 * axe-core on the extension's own pages (issue 31), built and loaded in
 * Chromium: the side panel (no task; a proposal with "Pick an element"
 * open; History; Memory) and the options page (Advanced open), in light and
 * dark. Fails on any serious or critical violation, listing each with its
 * nodes. axe is evaluated into the page through the DevTools protocol (tests
 * only: it never ships).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchWithExtension, type ExtensionBrowser } from '../support/chromium.ts';
import { startStaticServer, type StaticServer } from '../support/static-server.ts';
import { disableExploration } from '../support/extension-settings.ts';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let browser: ExtensionBrowser;
let server: StaticServer;
let site: Page;
let panel: Page;
let tabId: number;

interface Violation { id: string; impact: string | null; help: string; nodes: string[] }

/** The serious and critical violations on the page as it is now. */
async function violations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => JSON.stringify(n.target)) }));
  });
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

async function inBothSchemes(page: Page, check: () => Promise<void>) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await check();
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

beforeAll(async () => {
  server = await startStaticServer(join(import.meta.dirname, '../fixtures/sites'));
  const url = `${server.origin}/members.html`;
  browser = await launchWithExtension();
  site = await browser.context.newPage();
  await site.goto(url);
  panel = await browser.context.newPage();
  await panel.setViewportSize({ width: 420, height: 900 });
  await panel.goto(`chrome-extension://${browser.extensionId}/src/ui/sidepanel/index.html`);
  await disableExploration(panel);
  tabId = await browser.serviceWorker.evaluate(async (u) => (await chrome.tabs.query({ url: u }))[0]!.id!, url);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('axe-core: no serious or critical violation', () => {
  it('the side panel: no task, then a proposal with a picked element, History and Memory', async () => {
    await panel.goto(`chrome-extension://${browser.extensionId}/src/ui/sidepanel/index.html?tabId=${tabId}`);
    const input = panel.getByLabel('Task for this tab');
    await input.waitFor();
    await inBothSchemes(panel, async () => expect(await violations(panel)).toEqual([]));

    await input.fill('Make Alan Turing an admin');
    await input.press('Enter');
    await panel.getByRole('heading', { name: 'Proposed step 1' }).waitFor({ timeout: 30_000 });
    await inBothSchemes(panel, async () => expect(await violations(panel)).toEqual([]));

    await panel.getByRole('button', { name: /^Pick an element/ }).click();
    await site.locator('[data-apprentice-overlay="banner"]').waitFor({ state: 'attached', timeout: 10_000 });
    await site.click('#alan-role');
    await panel.getByRole('heading', { name: /^Picked: / }).waitFor({ timeout: 10_000 });
    await inBothSchemes(panel, async () => expect(await violations(panel)).toEqual([]));
    await panel.getByRole('button', { name: 'Run on this element' }).click();
    await panel.getByRole('heading', { name: 'Proposed step 2' }).waitFor({ timeout: 30_000 });
    await panel.getByRole('button', { name: /^Task is done/ }).first().click();
    await panel.getByText(/^Outcome: Succeeded/).waitFor({ timeout: 30_000 });

    await panel.getByRole('tab', { name: 'History' }).click();
    await panel.getByRole('button', { name: /Make Alan Turing an admin/ }).first().click();
    await panel.getByRole('img', { name: /Learning curve for/ }).waitFor({ timeout: 10_000 });
    await inBothSchemes(panel, async () => expect(await violations(panel)).toEqual([]));

    await panel.getByRole('tab', { name: 'Memory' }).click();
    await panel.getByRole('table', { name: 'What is remembered, per site' }).waitFor({ timeout: 10_000 });
    await panel.getByText(/^Raw transitions/).click();
    await inBothSchemes(panel, async () => expect(await violations(panel)).toEqual([]));
  });

  it('the options page, with Advanced open', async () => {
    const options = await browser.context.newPage();
    await options.goto(`chrome-extension://${browser.extensionId}/src/ui/options/index.html`);
    await options.getByRole('heading', { name: 'Apprentice settings' }).waitFor();
    await options.getByRole('heading', { name: 'Team memory' }).waitFor({ timeout: 10_000 });
    await inBothSchemes(options, async () => expect(await violations(options)).toEqual([]));
    await options.getByTestId('advanced').locator(':scope > summary').click();
    await inBothSchemes(options, async () => expect(await violations(options)).toEqual([]));
  });
});
