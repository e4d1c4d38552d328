/**
 * "Pick an element" on the built extension in real Chromium (issue 31),
 * against a members page written for the test (per-row "Role" and "Remove"
 * controls with the same names). Words typed into the edit field get an
 * answer that points at the picker; the picker outlines what is under the
 * pointer with its name and row, Escape in the page cancels, and a click
 * picks the element without the page ever seeing it. The person then
 * chooses what to do in the panel, with no grammar typed, and the step runs
 * on that element, stored in semantic form as an edit correction.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Episode } from '../../src/core/episode/episode.ts';
import { launchWithExtension, type ExtensionBrowser } from '../support/chromium.ts';
import { editField } from '../support/panel-edit.ts';
import { startStaticServer, type StaticServer } from '../support/static-server.ts';
import { disableExploration } from '../support/extension-settings.ts';
import { messagesFrom } from '../support/extension-messaging.ts';

const TASK = 'Make Alan Turing an admin';

let browser: ExtensionBrowser;
let server: StaticServer;
let site: Page;
let panel: Page;
let pageUrl: string;
let tabId: number;

const { request } = messagesFrom(() => panel);
const current = () => request<Episode | null>({ type: 'episode.current', tabId });
const banner = () => site.locator('[data-apprentice-overlay="banner"]');
const pickLabel = () => site.locator('[data-apprentice-overlay="pick"]').filter({ hasText: /^Pick: / });

beforeAll(async () => {
  server = await startStaticServer(join(import.meta.dirname, '../fixtures/sites'));
  pageUrl = `${server.origin}/members.html`;
  browser = await launchWithExtension();
  site = await browser.context.newPage();
  await site.goto(pageUrl);
  panel = await browser.context.newPage();
  await panel.setViewportSize({ width: 420, height: 900 });
  await panel.goto(`chrome-extension://${browser.extensionId}/src/ui/sidepanel/index.html`);
  await disableExploration(panel);
  tabId = await browser.serviceWorker.evaluate(async (url) => (await chrome.tabs.query({ url }))[0]!.id!, pageUrl);
  await panel.goto(`chrome-extension://${browser.extensionId}/src/ui/sidepanel/index.html?tabId=${tabId}`);
  const input = panel.getByLabel('Task for this tab');
  await input.waitFor();
  await input.fill(TASK);
  await input.press('Enter');
  await panel.getByRole('heading', { name: 'Proposed step 1' }).waitFor({ timeout: 30_000 });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('Pick an element', () => {
  it('words in the edit field get an answer that suggests pointing, and nothing runs', async () => {
    await (await editField(panel)).fill('set Alan to admin');
    await panel.getByRole('button', { name: 'Run edited' }).click();
    expect(await panel.locator('#edit-error').textContent()).toBe(
      '“set Alan to admin” reads as words, and this field takes an action such as click(<button "Sign in">). ' +
      'To say it without one: press Pick an element and click the element in the page, or press Show me and do the step yourself.',
    );
    expect((await current())!.steps[0]!.chosen).toBeNull();
  });

  it('outlines the element under the pointer with its row; Escape in the page cancels and the page saw nothing', async () => {
    await panel.getByRole('button', { name: /^Pick an element/ }).click();
    await banner().waitFor({ state: 'attached', timeout: 10_000 });
    expect(await banner().textContent()).toBe('Apprentice: click the element to use · Esc cancels');
    await site.hover('#alan-remove');
    await expect.poll(() => pickLabel().textContent(), { timeout: 10_000 }).toBe('Pick: button “Remove” — row “Alan Turing”');
    await site.keyboard.press('Escape');
    await panel.getByText('Picking cancelled.').waitFor({ timeout: 10_000 });
    expect(await banner().count()).toBe(0);
    expect(await site.evaluate(() => (window as unknown as { presses: number }).presses)).toBe(0);
  });

  it('a click picks the element (the page never sees it); choosing "Admin" runs select_option on that row\'s Role', async () => {
    await panel.getByRole('button', { name: /^Pick an element/ }).click();
    await banner().waitFor({ state: 'attached', timeout: 10_000 });
    // The pointer moves over Ada's Remove, then picks Alan's Role.
    await site.hover('h1');
    await site.hover('.remove');
    await expect.poll(() => pickLabel().textContent(), { timeout: 10_000 }).toBe('Pick: button “Remove” — row “Ada Lovelace”');
    await site.click('#alan-role');
    await panel.getByRole('heading', { name: /^Picked: / }).waitFor({ timeout: 10_000 });
    expect(await panel.locator('.picked-target').textContent()).toBe('combobox “Role” — row “Alan Turing”');
    expect(await banner().count()).toBe(0);
    expect(await site.locator('#alan-remove').count()).toBe(1);
    expect(await site.evaluate(() => (window as unknown as { presses: number }).presses)).toBe(0);
    // The likeliest fit for a select is choosing an option; its focus is on that choice.
    expect(await panel.getByRole('radio', { name: 'Choose an option' }).isChecked()).toBe(true);
    await panel.getByLabel('Option', { exact: true }).selectOption('Admin');
    await panel.getByRole('button', { name: 'Run on this element' }).click();
    await panel.getByRole('heading', { name: 'Proposed step 2' }).waitFor({ timeout: 30_000 });
    expect(await site.locator('#alan-role').inputValue()).toBe('Admin');
    const step = (await current())!.steps[0]!;
    // The run form names the picked element by its ref; memory keeps the semantic form, row included.
    expect(step.chosen).toMatchObject({
      action: expect.stringMatching(/^select_option\(\[\d+\], "Admin"\)$/),
      semantic: 'select_option(<combobox "Role" in row "Alan Turing">, "Admin")',
      decision: 'edited',
      correction: 'edit',
    });
    expect(step.result).toMatchObject({ ok: true });
  });
});
