/**
 * Screenshots of the side panel for docs/ (issue 31), taken from the BUILT
 * extension in Chromium with playwright: a person corrects a step by
 * pointing, marks the task done, runs it again from the learned plan, and
 * reads History and Memory. `npm run screenshots` builds first; the PNGs go
 * to docs/screenshots/ (or --out).
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { launchWithExtension } from '../test/support/chromium.ts';
import { startStaticServer } from '../test/support/static-server.ts';
import { disableExploration } from '../test/support/extension-settings.ts';
import { parseCli, runCli } from './cli.ts';

const ABOUT = 'Takes screenshots of the side panel (a correction by pointing, the next attempt, History, Memory) from the built extension. Run `npm run build` first (npm run screenshots does).';
const TASK = 'Make Alan Turing an admin';

async function main(): Promise<number> {
  const cli = parseCli({ options: { out: { type: 'string', default: 'docs/screenshots' } } }, ABOUT);
  if ('exit' in cli) return cli.exit;
  const out = resolve(cli.args.values.out as string);
  mkdirSync(out, { recursive: true });
  const server = await startStaticServer(resolve(import.meta.dirname, '../test/fixtures/sites'));
  const browser = await launchWithExtension();
  try {
    const url = `${server.origin}/members.html`;
    const site = await browser.context.newPage();
    await site.setViewportSize({ width: 900, height: 600 });
    await site.goto(url);
    const panel = await browser.context.newPage();
    await panel.setViewportSize({ width: 420, height: 900 });
    await panel.goto(`chrome-extension://${browser.extensionId}/src/ui/sidepanel/index.html`);
    await disableExploration(panel);
    const tabId = await browser.serviceWorker.evaluate(async (u) => (await chrome.tabs.query({ url: u }))[0]!.id!, url);
    const shot = async (page: Page, name: string) => {
      await page.screenshot({ path: join(out, `${name}.png`), fullPage: page === panel });
      console.log(`wrote ${join(out, `${name}.png`)}`);
    };
    const start = async () => {
      await site.goto(url);
      await panel.goto(`chrome-extension://${browser.extensionId}/src/ui/sidepanel/index.html?tabId=${tabId}`);
      const input = panel.getByLabel('Task for this tab');
      await input.waitFor();
      await input.fill(TASK);
      await input.press('Enter');
    };

    // Attempt 1: the proposal, then a correction by pointing.
    await start();
    await panel.getByRole('heading', { name: 'Proposed step 1' }).waitFor({ timeout: 30_000 });
    await shot(panel, 'panel-1-proposal');
    await panel.getByRole('button', { name: /^Pick an element/ }).click();
    await site.locator('[data-apprentice-overlay="banner"]').waitFor({ state: 'attached' });
    await site.hover('h1');
    await site.hover('#alan-role');
    await site.locator('[data-apprentice-overlay="pick"]').first().waitFor({ state: 'attached' });
    await shot(site, 'page-pick-an-element');
    await site.click('#alan-role');
    await panel.getByRole('heading', { name: /^Picked: / }).waitFor();
    await panel.getByLabel('Option', { exact: true }).selectOption('Admin');
    await shot(panel, 'panel-2-picked');
    await panel.getByRole('button', { name: 'Run on this element' }).click();
    await panel.getByRole('heading', { name: 'Proposed step 2' }).waitFor({ timeout: 30_000 });
    await panel.getByRole('button', { name: /^Task is done/ }).first().click();
    await panel.getByText(/^Outcome: Succeeded/).waitFor({ timeout: 30_000 });

    // Attempt 2: what was taught comes back (as a plan, or as the first proposal).
    await start();
    await panel.locator('section.replay-plan, #proposal-heading').first().waitFor({ timeout: 30_000 });
    await shot(panel, 'panel-3-second-attempt');
    await panel.getByRole('button', { name: /^Approve/ }).first().click();
    await panel.getByRole('button', { name: /^Task is done/ }).first().waitFor({ timeout: 30_000 });
    await panel.getByRole('button', { name: /^Task is done/ }).first().click();
    await panel.getByText(/^Outcome: Succeeded/).waitFor({ timeout: 30_000 });

    await panel.getByRole('tab', { name: 'History' }).click();
    await panel.getByRole('button', { name: new RegExp(TASK) }).first().click();
    await panel.getByRole('img', { name: /^What each attempt of/ }).waitFor({ timeout: 10_000 });
    await shot(panel, 'panel-4-history');
    await panel.getByRole('tab', { name: 'Memory' }).click();
    await panel.getByRole('table', { name: 'What is remembered, per site' }).waitFor({ timeout: 10_000 });
    await panel.getByRole('heading', { name: /^Learned plans/ }).waitFor({ timeout: 10_000 });
    await shot(panel, 'panel-5-memory');
    return 0;
  } finally {
    await browser.close();
    await server.close();
  }
}

runCli(main);
