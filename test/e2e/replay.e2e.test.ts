/**
 * Issue 25 on the built extension: a taught success on a page written for
 * this test becomes a procedure; the next instance of the task is offered as
 * a plan in the side panel (steps, the value it types, the origin), runs
 * from memory after one approval with 0 model calls, and after the page's
 * button is renamed the replay stops at that step and says why. Screenshots
 * go to test-results/.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchWithExtension, type ExtensionBrowser } from '../support/chromium.ts';
import { editField } from '../support/panel-edit.ts';
import { disableExploration } from '../support/extension-settings.ts';
import { startStaticServer, type StaticServer } from '../support/static-server.ts';

const SHOTS = resolve(import.meta.dirname, '../../test-results');

let browser: ExtensionBrowser;
let server: StaticServer;
let site: Page;
let panel: Page;
let home: string;

const shot = (name: string) => panel.screenshot({ path: join(SHOTS, `replay-${name}.png`), fullPage: true });

async function startTask(task: string) {
  await site.goto(home);
  const tabId = await browser.serviceWorker.evaluate(async (url) => (await chrome.tabs.query({ url }))[0]!.id!, home);
  await panel.goto(`chrome-extension://${browser.extensionId}/src/ui/sidepanel/index.html?tabId=${tabId}`);
  const input = panel.getByLabel('Task for this tab');
  await input.waitFor();
  await input.fill(task);
  await panel.getByRole('button', { name: /^Start/ }).click();
}

async function runEdited(action: string, nextStep: number | null) {
  await (await editField(panel)).fill(action);
  await panel.getByRole('button', { name: 'Run edited' }).click();
  if (nextStep !== null) await panel.getByRole('heading', { name: `Proposed step ${nextStep}` }).waitFor({ timeout: 30_000 });
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startStaticServer(join(import.meta.dirname, '../fixtures/sites'));
  home = `${server.origin}/replay/index.html`;
  browser = await launchWithExtension();
  site = await browser.context.newPage();
  panel = await browser.context.newPage();
  await panel.setViewportSize({ width: 420, height: 1000 });
  await panel.goto(`chrome-extension://${browser.extensionId}/src/ui/sidepanel/index.html`);
  await disableExploration(panel);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('a learned procedure in the side panel', () => {
  it('attempt 1: the person teaches the steps; success', async () => {
    await startTask('Set my nickname to "Ada"');
    await panel.getByRole('heading', { name: 'Proposed step 1' }).waitFor({ timeout: 30_000 });
    await runEdited('click(<link "Your profile">)', 2);
    await runEdited('fill(<textbox "Nickname">, "Ada")', 3);
    await runEdited('click(<button "Apply nickname">)', 4);
    expect(await site.locator('#current').textContent()).toBe('Ada');
    await panel.getByRole('button', { name: 'Stop' }).waitFor();
    // The task is done: say so.
    await (await editField(panel)).fill('send_msg_to_user("Nickname set")');
    await panel.getByRole('button', { name: 'Run edited' }).click();
    await panel.getByRole('button', { name: 'Success' }).click();
    await panel.getByText('Outcome: Succeeded.').waitFor({ timeout: 30_000 });
  });

  it('attempt 2: the whole plan is offered, approved once, and runs from memory with 0 model calls', async () => {
    await startTask('Set my nickname to "Grace"');
    const card = panel.locator('section.replay-plan');
    await card.waitFor({ timeout: 30_000 });
    expect(await card.getByRole('heading').textContent()).toBe('Learned plan: Set my nickname to {nickname}');
    expect(await card.getByRole('list', { name: 'Plan steps' }).locator('code').allTextContents()).toEqual([
      'click(<link "Your profile">)', 'fill(<textbox "Nickname">, "Grace")', 'click(<button "Apply nickname">)',
    ]);
    expect(await card.getByRole('textbox', { name: 'Value nickname' }).inputValue()).toBe('Grace');
    expect(await card.textContent()).toContain(`Origins it touches: ${server.origin}`);
    await shot('1-plan-offered');
    await card.getByRole('button', { name: 'Run all 3 steps without asking' }).click();
    await panel.getByTestId('replay-saving').waitFor({ timeout: 30_000 });
    await expect.poll(() => site.locator('#current').textContent(), { timeout: 30_000 }).toBe('Grace');
    await expect.poll(() => panel.getByTestId('replay-saving').textContent(), { timeout: 30_000 }).toMatch(/^replayed from memory · 0 model calls · 3 steps/);
    // The taught success ended with a message: after the plan, the policy proposes the answer (it always asks).
    await panel.getByRole('heading', { name: 'Proposed step 4' }).waitFor({ timeout: 30_000 });
    await shot('2-replayed');
    await (await editField(panel)).fill('send_msg_to_user("Nickname set")');
    await panel.getByRole('button', { name: 'Run edited' }).click();
    await panel.getByRole('button', { name: 'Success' }).click();
    await panel.getByText('Outcome: Succeeded.').waitFor({ timeout: 30_000 });
  });

  it('attempt 3: the button was renamed; the replay stops at that step, says why, and the policy takes over', async () => {
    await site.goto(home);
    await site.evaluate(() => localStorage.setItem('orbit.renamed', '1'));
    await startTask('Set my nickname to "Hopper"');
    const card = panel.locator('section.replay-plan');
    await card.getByRole('button', { name: 'Run all 3 steps without asking' }).click({ timeout: 30_000 });
    const fallback = panel.getByTestId('replay-fallback');
    await fallback.waitFor({ timeout: 30_000 });
    expect(await fallback.textContent()).toBe('Replay stopped at step 3 of 3: <button "Apply nickname"> is not on the page. The policy takes over from here.');
    await panel.getByRole('heading', { name: 'Proposed step 3' }).waitFor({ timeout: 30_000 });
    // Nothing ran on another element: the name was typed, and not applied.
    expect(await site.locator('#nick').inputValue()).toBe('Hopper');
    expect(await site.locator('#current').textContent()).toBe('Grace');
    await shot('3-fallback');
    await panel.getByRole('button', { name: 'Stop' }).click();
    // Stop asks how it went (issue 31); Skip stops without a verdict.
    await panel.getByRole('button', { name: 'Skip' }).click();
    await panel.getByText('Outcome: Stopped.').waitFor();
  });

  it('the Memory tab lists the procedure with its provenance and success count', async () => {
    await panel.getByRole('tab', { name: 'Memory' }).click();
    const list = panel.getByRole('list', { name: /^Procedures on / });
    await list.waitFor({ timeout: 10_000 });
    expect(await list.textContent()).toMatch(/from a taught attempt.* · 3 successes/);
    await shot('4-memory');
  });
});
