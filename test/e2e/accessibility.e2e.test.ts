/**
 * axe-core on the extension's own pages (issue 31: "0 violations on every
 * panel and options state, light and dark"), built and loaded in Chromium.
 * The side panel: no task, a proposal, after a Reject, Show me recording,
 * picking, a picked element, Stop's verdict question, the outcome, History,
 * Memory with its raw transitions; the options page: as it opens, another
 * provider's fields, Advanced open, a field in error with unsaved changes,
 * the team section's test report. Every state in light and dark; any
 * violation of any impact fails, listed with its nodes. And the focus ring
 * reaches 3:1 against the background it is drawn on, in both schemes. axe is
 * evaluated into the page (tests only: it never ships).
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

/** Every violation on the page as it is now, of any impact. */
async function violations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => JSON.stringify(n.target)) }));
  });
  return found;
}

/** Checks the page as it is now in light and in dark; a violation is reported with its state and scheme, and the test goes on. */
async function checkState(page: Page, state: string) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    expect.soft(await violations(page), `${state}, ${colorScheme}`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** WCAG's relative luminance of an `rgb(…)` colour, and the contrast of two. */
function luminance(rgb: string): number {
  const [r, g, b] = (rgb.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The focused element's outline colour and width, and the background behind it (the first opaque one up the tree). */
async function focusRing(page: Page): Promise<{ outline: string; width: number; background: string }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const style = getComputedStyle(el);
    let bg = 'rgb(255, 255, 255)';
    for (let cur: Element | null = el.parentElement; cur; cur = cur.parentElement) {
      const c = getComputedStyle(cur).backgroundColor;
      if (c !== 'transparent' && !/rgba\(.*, 0\)$/.test(c)) { bg = c; break; }
    }
    return { outline: style.outlineColor, width: Number.parseFloat(style.outlineWidth), background: bg };
  });
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

describe('axe-core: 0 violations, light and dark', () => {
  it('the side panel, in every state of an episode, History and Memory', async () => {
    await panel.goto(`chrome-extension://${browser.extensionId}/src/ui/sidepanel/index.html?tabId=${tabId}`);
    const input = panel.getByLabel('Task for this tab');
    await input.waitFor();
    await checkState(panel, 'no task');

    await input.fill('Make Alan Turing an admin');
    await input.press('Enter');
    await panel.getByRole('heading', { name: 'Proposed step 1' }).waitFor({ timeout: 30_000 });
    await checkState(panel, 'a proposal');

    await panel.getByRole('button', { name: /^Reject/ }).click();
    await panel.locator('ol.candidates li.rejected').first().waitFor({ timeout: 10_000 });
    await checkState(panel, 'after a Reject');

    await panel.getByRole('button', { name: 'Show me' }).click();
    await panel.getByRole('button', { name: 'Cancel Show me' }).waitFor({ timeout: 10_000 });
    await checkState(panel, 'Show me recording');
    await panel.getByRole('button', { name: 'Cancel Show me' }).click();
    await panel.getByRole('button', { name: /^Pick an element/ }).waitFor({ timeout: 10_000 });

    await panel.getByRole('button', { name: /^Pick an element/ }).click();
    await site.locator('[data-apprentice-overlay="banner"]').waitFor({ state: 'attached', timeout: 10_000 });
    await checkState(panel, 'picking in the page');
    await site.click('#alan-role');
    await panel.getByRole('heading', { name: /^Picked: / }).waitFor({ timeout: 10_000 });
    await checkState(panel, 'a picked element');
    await panel.getByRole('button', { name: 'Run on this element' }).click();
    await panel.getByRole('heading', { name: 'Proposed step 2' }).waitFor({ timeout: 30_000 });

    await panel.getByRole('button', { name: 'Stop' }).click();
    await panel.getByRole('heading', { name: 'Stopped. How did it go?' }).waitFor({ timeout: 10_000 });
    await checkState(panel, "Stop's verdict question");
    await panel.getByRole('group', { name: 'Verdict after stopping' }).getByRole('button', { name: 'Success' }).click();
    await panel.getByText(/^Outcome: Succeeded/).waitFor({ timeout: 30_000 });
    await checkState(panel, 'the outcome');

    await panel.getByRole('tab', { name: 'History' }).click();
    await panel.getByRole('button', { name: /Make Alan Turing an admin/ }).first().click();
    await panel.getByRole('img', { name: /Learning curve for/ }).waitFor({ timeout: 10_000 });
    await checkState(panel, 'History');

    await panel.getByRole('tab', { name: 'Memory' }).click();
    await panel.getByRole('table', { name: 'What is remembered, per site' }).waitFor({ timeout: 10_000 });
    await checkState(panel, 'Memory');
    await panel.getByText(/^Raw transitions/).click();
    await checkState(panel, 'Memory, raw transitions open');
  });

  it('the options page, in each of its sections and states', async () => {
    const options = await browser.context.newPage();
    await options.goto(`chrome-extension://${browser.extensionId}/src/ui/options/index.html`);
    await options.getByRole('heading', { name: 'Apprentice settings' }).waitFor();
    await options.getByRole('heading', { name: 'Team memory' }).waitFor({ timeout: 10_000 });
    await checkState(options, 'as it opens');

    const preset = options.getByLabel('Provider', { exact: true });
    const presets = await preset.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    for (const value of presets) {
      await preset.selectOption(value);
      await checkState(options, `provider ${value}`);
    }

    await options.getByTestId('advanced').locator(':scope > summary').click();
    await checkState(options, 'Advanced open');

    await preset.selectOption('custom');
    await options.getByLabel('Base URL').fill('');
    await options.getByLabel(/^Timeout \(ms\)/).fill('-5');
    // A site row in the ask-modes table, in error too (issue 31).
    await options.getByRole('button', { name: 'Add a site' }).click();
    await options.getByLabel('Site 1', { exact: true }).fill('ftp://files.test');
    await options.getByRole('button', { name: 'Save', exact: true }).click();
    await options.getByRole('list', { name: 'Fields to fix' }).waitFor({ timeout: 10_000 });
    await options.locator('#site-origin-0-error').waitFor();
    await checkState(options, 'a field in error');

    await options.getByLabel('Server URL').fill('http://127.0.0.1:9/');
    await options.getByRole('button', { name: 'Test team connection' }).click();
    await options.locator('.team-memory').getByRole('alert').or(options.locator('.team-memory').getByRole('status')).first().waitFor({ timeout: 20_000 });
    await checkState(options, 'the team test report');
  });
});

describe('the focus ring: at least 3:1 against what it is drawn on', () => {
  it('on the side panel and the options page, light and dark', async () => {
    const options = await browser.context.newPage();
    await options.goto(`chrome-extension://${browser.extensionId}/src/ui/options/index.html`);
    await options.getByRole('heading', { name: 'Apprentice settings' }).waitFor();
    for (const page of [panel, options]) {
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        await page.locator('body').click({ position: { x: 1, y: 1 } });
        await page.keyboard.press('Tab');
        const ring = await focusRing(page);
        expect(ring.width, `${page.url()} ${colorScheme}`).toBeGreaterThanOrEqual(2);
        expect(contrast(ring.outline, ring.background), `${page.url()} ${colorScheme}: ${ring.outline} on ${ring.background}`).toBeGreaterThanOrEqual(3);
      }
    }
  });
});
