/**
 * What the page shows of Apprentice (issue 31), on the built extension: the
 * proposal's target is outlined with "Apprentice: next step"; while Show me
 * records, a banner says so, gone once it is cancelled; before the agent
 * acts, the target is marked "Apprentice: doing this step"; and while the
 * episode works in the tab, a border frames the page, gone once it ends.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchWithExtension, type ExtensionBrowser } from '../support/chromium.ts';
import { startStaticServer, type StaticServer } from '../support/static-server.ts';
import { disableExploration } from '../support/extension-settings.ts';

let browser: ExtensionBrowser;
let server: StaticServer;
let site: Page;
let panel: Page;

const mark = (kind: string) => site.locator(`[data-apprentice-overlay="${kind}"]`);

beforeAll(async () => {
  server = await startStaticServer(join(import.meta.dirname, '../fixtures/sites'));
  const formUrl = `${server.origin}/form.html`;
  browser = await launchWithExtension();
  site = await browser.context.newPage();
  await site.goto(formUrl);
  panel = await browser.context.newPage();
  await panel.setViewportSize({ width: 420, height: 900 });
  await panel.goto(`chrome-extension://${browser.extensionId}/src/ui/sidepanel/index.html`);
  await disableExploration(panel);
  const tabId = await browser.serviceWorker.evaluate(async (url) => (await chrome.tabs.query({ url }))[0]!.id!, formUrl);
  await panel.goto(`chrome-extension://${browser.extensionId}/src/ui/sidepanel/index.html?tabId=${tabId}`);
  const input = panel.getByLabel('Task for this tab');
  await input.waitFor();
  await input.fill('Sign up with the email "ada@example.com"');
  await input.press('Enter');
  await panel.getByRole('heading', { name: 'Proposed step 1' }).waitFor({ timeout: 30_000 });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('in the page', () => {
  it('labels the proposal\'s target "Apprentice: next step"', async () => {
    await expect.poll(() => mark('next').textContent(), { timeout: 10_000 }).toBe('Apprentice: next step');
    // A clear outline, not a faint one.
    expect(await site.locator('[data-apprentice-overlay=""]').evaluate((b) => (b as HTMLElement).style.outline)).toBe('rgb(194, 65, 12) solid 3px');
  });

  it('shows a banner while Show me records, gone when it is cancelled', async () => {
    await panel.getByRole('button', { name: 'Show me' }).click();
    await expect.poll(() => mark('banner').textContent(), { timeout: 10_000 }).toBe('Apprentice is recording what you do');
    await panel.getByRole('button', { name: 'Cancel Show me' }).click();
    await expect.poll(() => mark('banner').count(), { timeout: 10_000 }).toBe(0);
  });

  it('marks the target "Apprentice: doing this step" before acting', async () => {
    await site.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seenMarks: string[] }).seenMarks = seen;
      new MutationObserver((records) => {
        for (const r of records) for (const n of Array.from(r.addedNodes)) if (n instanceof HTMLElement && n.dataset['apprenticeOverlay'] === 'next') seen.push(n.textContent ?? '');
      }).observe(document.body, { childList: true });
    });
    await panel.getByRole('button', { name: /^Approve/ }).click();
    await panel.getByRole('heading', { name: 'Proposed step 2' }).waitFor({ timeout: 30_000 });
    expect(await site.locator('#email').inputValue()).toBe('ada@example.com');
    const seen = await site.evaluate(() => (window as unknown as { seenMarks: string[] }).seenMarks);
    expect(seen[0]).toBe('Apprentice: doing this step');
    await expect.poll(() => mark('next').textContent(), { timeout: 10_000 }).toBe('Apprentice: next step');
  });

  it('frames the page while the episode works in the tab, and takes the frame away when it ends', async () => {
    // Drawn again after the step's navigation-free act, and inert for the page.
    await expect.poll(() => mark('frame').count(), { timeout: 10_000 }).toBe(2);
    const border = mark('frame').first();
    expect(await border.evaluate((b) => { const s = getComputedStyle(b); return [s.borderTopWidth, s.borderTopStyle, s.borderTopColor, s.pointerEvents, s.position]; }))
      .toEqual(['4px', 'solid', 'rgb(194, 65, 12)', 'none', 'fixed']);
    // It covers the whole viewport.
    const box = await border.boundingBox();
    const viewport = site.viewportSize()!;
    expect([box?.x, box?.y, box?.width, box?.height]).toEqual([0, 0, viewport.width, viewport.height]);
    expect(await mark('frame').last().textContent()).toBe('Apprentice is working in this tab');
    // A click in the page still reaches the page through it.
    await site.click('#email');
    expect(await site.evaluate(() => document.activeElement?.id)).toBe('email');
    await panel.getByRole('button', { name: /^Task is done/ }).first().click();
    await panel.getByText(/^Outcome: Succeeded/).waitFor({ timeout: 30_000 });
    await expect.poll(() => mark('frame').count(), { timeout: 10_000 }).toBe(0);
  });
});
