/**
 * A first-time user (issue 31, Targets), on the built extension in real
 * Chromium with all defaults but exploration (the e2e tests' one setting),
 * against the members page written for the tests: they type a task in plain
 * words, correct one step by pointing (Pick an element, then a choice in the
 * panel), mark the task done, and the next time what they taught is offered
 * as a learned plan, approved once. No action grammar is typed anywhere (the test never touches
 * the edit field). Each state is screenshotted to test-results/.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Episode } from '../../src/core/episode/episode.ts';
import { launchWithExtension, type ExtensionBrowser } from '../support/chromium.ts';
import { startStaticServer, type StaticServer } from '../support/static-server.ts';
import { disableExploration } from '../support/extension-settings.ts';
import { messagesFrom } from '../support/extension-messaging.ts';

const SHOTS = resolve(import.meta.dirname, '../../test-results');
const TASK = 'Make Alan Turing an admin';

let browser: ExtensionBrowser;
let server: StaticServer;
let site: Page;
let panel: Page;
let url: string;
let tabId: number;
const shots: string[] = [];

const { request } = messagesFrom(() => panel);
const current = () => request<Episode | null>({ type: 'episode.current', tabId });
async function shot(page: Page, name: string) {
  await page.screenshot({ path: join(SHOTS, `first-time-${name}.png`), fullPage: page === panel });
  shots.push(name);
}
async function start() {
  await site.goto(url);
  await panel.goto(`chrome-extension://${browser.extensionId}/src/ui/sidepanel/index.html?tabId=${tabId}`);
  const input = panel.getByLabel('Task for this tab');
  await input.waitFor();
  await shot(panel, `${shots.length}-task-box`);
  await input.fill(TASK);
  await input.press('Enter');
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startStaticServer(join(import.meta.dirname, '../fixtures/sites'));
  url = `${server.origin}/members.html`;
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

describe('a first-time user', () => {
  it('attempt 1: corrects one step by pointing and marks the task done, typing no grammar', async () => {
    await start();
    await panel.getByRole('heading', { name: 'Proposed step 1' }).waitFor({ timeout: 30_000 });
    // Focus is on Approve, which names what it runs.
    expect(await panel.evaluate(() => document.activeElement?.textContent ?? '')).toMatch(/^Approve: /);
    await shot(panel, '1-proposal');
    // The action form is an advanced field, closed until asked for; it names the element as the person sees it, not by a ref.
    expect(await panel.getByLabel('Edit the action').isVisible()).toBe(false);
    expect(await panel.getByLabel('Edit the action').inputValue()).not.toMatch(/\[\d+\]/);

    await panel.getByRole('button', { name: /^Pick an element/ }).click();
    await site.locator('[data-apprentice-overlay="banner"]').waitFor({ state: 'attached', timeout: 10_000 });
    await site.hover('#alan-role');
    await site.locator('[data-apprentice-overlay="pick"]').first().waitFor({ state: 'attached', timeout: 10_000 });
    await shot(site, '2-pointing-in-the-page');
    await shot(panel, '3-panel-while-pointing');
    await site.click('#alan-role');
    await panel.getByRole('heading', { name: /^Picked: / }).waitFor({ timeout: 10_000 });
    await panel.getByLabel('Option', { exact: true }).selectOption('Admin');
    await shot(panel, '4-picked');
    await panel.getByRole('button', { name: 'Run on this element' }).click();
    await panel.getByRole('heading', { name: 'Proposed step 2' }).waitFor({ timeout: 30_000 });
    expect(await site.locator('#alan-role').inputValue()).toBe('Admin');
    await shot(panel, '5-after-the-correction');

    await panel.getByRole('button', { name: /^Task is done/ }).first().click();
    await panel.getByText(/^Outcome: Succeeded/).waitFor({ timeout: 30_000 });
    await shot(panel, '6-done');
    const ep = (await current())!;
    expect(ep.status).toBe('success');
    expect(ep.steps[0]!.chosen).toMatchObject({ semantic: 'select_option(<combobox "Role" in row "Alan Turing">, "Admin")', correction: 'edit' });
  });

  // The target: the plan is offered next time. A one-step task taught once is a learned procedure like any
  // other (the template "Make {item} an {role}", the row bound to the task's member).
  it('attempt 2: the taught step comes back as a learned plan; one Approve runs it from memory', async () => {
    await site.locator('#alan-role').selectOption('Viewer');
    await start();
    const card = panel.locator('section.replay-plan');
    await card.waitFor({ timeout: 30_000 });
    expect(await card.getByRole('heading').textContent()).toBe('Learned plan: Make {item} an {role}');
    const steps = card.getByRole('list', { name: 'Plan steps' }).locator('li');
    expect(await steps.first().textContent()).toMatch(/^Choose “admin” in “Role” \(row “Alan Turing”\) on \/members\.html/);
    expect(await card.getByRole('textbox', { name: 'Value item' }).inputValue()).toBe('Alan Turing');
    await shot(panel, '7-plan-offered');
    // One primary action (issue 31): a one-step plan is its step, approved once from the proposal.
    expect(await card.getByRole('button').allTextContents()).toEqual(["Don't use the plan"]);
    expect(await panel.locator('button.primary').count()).toBe(1);
    await panel.getByRole('button', { name: /^Approve: Choose/ }).click();
    await expect.poll(() => site.locator('#alan-role').inputValue(), { timeout: 30_000 }).toBe('Admin');
    await expect.poll(() => panel.getByTestId('replay-saving').textContent(), { timeout: 30_000 }).toMatch(/^replayed from memory · 0 model calls · 1 step/);
    // The taught success ended with "Task is done": after the plan, the finishing step is proposed, and asks.
    await panel.getByRole('heading', { name: 'Proposed step 2' }).waitFor({ timeout: 30_000 });
    await shot(panel, '8-after-the-plan');
    await panel.getByRole('button', { name: /^Task is done/ }).first().click();
    await panel.getByText(/^Outcome: Succeeded/).waitFor({ timeout: 30_000 });
    await shot(panel, '9-done-again');
    const ep = (await current())!;
    expect(ep.steps.map((step) => [step.chosen?.semantic, step.replayStep?.step ?? null])).toEqual([
      ['select_option(<combobox "Role" in row "Alan Turing">, "admin")', 0], ['send_msg_to_user("")', null],
    ]);
    expect(shots).toEqual([
      '0-task-box', '1-proposal', '2-pointing-in-the-page', '3-panel-while-pointing', '4-picked', '5-after-the-correction', '6-done',
      '7-task-box', '7-plan-offered', '8-after-the-plan', '9-done-again',
    ]);
  });
});
