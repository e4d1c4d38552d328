/**
 * "Pick an element" inside frames (issue 31), on the built extension in real
 * Chromium, against a page written for the test: a same-origin frame (a
 * search field and a button) and a cross-origin one (the same page under
 * another host name). In the same-origin frame the picker outlines the
 * element under the pointer where the frame shows it, a click picks it
 * without the frame seeing the click, and the correction runs there. Over
 * the cross-origin frame it says it cannot read it, and a click there
 * reaches neither that frame nor the page.
 */
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Episode } from '../../src/core/episode/episode.ts';
import { launchWithExtension, type ExtensionBrowser } from '../support/chromium.ts';
import { startStaticServer, type StaticServer } from '../support/static-server.ts';
import { disableExploration } from '../support/extension-settings.ts';
import { messagesFrom } from '../support/extension-messaging.ts';

let browser: ExtensionBrowser;
let server: StaticServer;
let site: Page;
let panel: Page;
let tabId: number;

const { request } = messagesFrom(() => panel);
const current = () => request<Episode | null>({ type: 'episode.current', tabId });
const banner = () => site.locator('[data-apprentice-overlay="banner"]');
const pickBox = () => site.locator('[data-apprentice-overlay="pick"]');
const frameAt = (host: string): Frame => site.frames().find((f) => f.url().startsWith(`http://${host}:`) && f.url().endsWith('/frame-inner.html'))!;
const presses = (where: Page | Frame) => where.evaluate(() => (window as unknown as { presses: number }).presses);

beforeAll(async () => {
  server = await startStaticServer(join(import.meta.dirname, '../fixtures/sites'));
  const pageUrl = `${server.origin}/pick-frames.html`;
  browser = await launchWithExtension();
  site = await browser.context.newPage();
  await site.goto(pageUrl);
  await site.locator('#other').contentFrame().locator('#inner-go').waitFor();
  panel = await browser.context.newPage();
  await panel.setViewportSize({ width: 420, height: 900 });
  await panel.goto(`chrome-extension://${browser.extensionId}/src/ui/sidepanel/index.html`);
  await disableExploration(panel);
  tabId = await browser.serviceWorker.evaluate(async (url) => (await chrome.tabs.query({ url }))[0]!.id!, pageUrl);
  await panel.goto(`chrome-extension://${browser.extensionId}/src/ui/sidepanel/index.html?tabId=${tabId}`);
  const input = panel.getByLabel('Task for this tab');
  await input.waitFor();
  await input.fill('Search the frame for lamps');
  await input.press('Enter');
  await panel.getByRole('heading', { name: 'Proposed step 1' }).waitFor({ timeout: 30_000 });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('Pick an element in frames', () => {
  it('a same-origin frame: the box is drawn where the frame shows the element; a click picks it and the correction runs in the frame', async () => {
    const inner = frameAt('127.0.0.1');
    await panel.getByRole('button', { name: /^Pick an element/ }).click();
    await banner().waitFor({ state: 'attached', timeout: 10_000 });
    await inner.hover('#inner-go');
    await expect.poll(() => pickBox().filter({ hasText: /^Pick: / }).textContent(), { timeout: 10_000 }).toMatch(/^Pick: button “Frame button”/);
    // The outline sits round the button as the top page shows it (the frame's offset added), within 4 px.
    const button = (await inner.locator('#inner-go').boundingBox())!;
    const box = (await pickBox().first().boundingBox())!;
    expect(Math.abs(box.x - (button.x - 3))).toBeLessThan(4);
    expect(Math.abs(box.y - (button.y - 3))).toBeLessThan(4);
    await inner.click('#inner-q');
    await panel.getByRole('heading', { name: /^Picked: / }).waitFor({ timeout: 10_000 });
    expect(await panel.locator('.picked-target').textContent()).toMatch(/^textbox “Frame search”/);
    // Neither the frame nor the page saw the pick's presses.
    expect(await presses(inner)).toBe(0);
    expect(await presses(site)).toBe(0);
    expect(await banner().count()).toBe(0);
    await panel.getByLabel('Text to type').fill('lamps');
    await panel.getByRole('button', { name: 'Run on this element' }).click();
    await panel.getByRole('heading', { name: 'Proposed step 2' }).waitFor({ timeout: 30_000 });
    expect(await inner.locator('#inner-q').inputValue()).toBe('lamps');
    expect((await current())!.steps[0]!.chosen).toMatchObject({ semantic: 'fill(<textbox "Frame search">, "lamps")', correction: 'edit' });
  });

  it('a cross-origin frame: it says it cannot read it, and a click there reaches neither the frame nor the page; Escape cancels', async () => {
    const other = frameAt('localhost');
    await panel.getByRole('button', { name: /^Pick an element/ }).click();
    await banner().waitFor({ state: 'attached', timeout: 10_000 });
    const frameBox = (await site.locator('#other').boundingBox())!;
    // The pointer moves about over the frame, as a person's does (the browser routes input by the frame's
    // new pointer-events from its next frame on).
    let dx = 0;
    await expect.poll(async () => {
      dx = (dx + 7) % 50;
      await site.mouse.move(frameBox.x + 40 + dx, frameBox.y + 40);
      return banner().textContent();
    }, { timeout: 10_000 }).toBe('Apprentice cannot read this frame (another site): pick outside it · Esc cancels');
    const go = (await other.locator('#inner-go').boundingBox())!;
    await site.mouse.click(go.x + go.width / 2, go.y + go.height / 2);
    expect(await other.locator('#inner-out').textContent()).toBe('');
    expect(await presses(other)).toBe(0);
    expect(await presses(site)).toBe(0);
    // Still picking: nothing was picked.
    expect(await banner().count()).toBe(1);
    await site.keyboard.press('Escape');
    await panel.getByText('Picking cancelled.').waitFor({ timeout: 10_000 });
    // The frame has its pointer back.
    expect(await site.locator('#other').evaluate((f) => getComputedStyle(f).pointerEvents)).toBe('auto');
  });
});
