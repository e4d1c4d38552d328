/**
 * Issue 22 item 1, across layers: snapshot → offline policy → action → page.
 * Pages written for this test: one whose only controls are <span>s with click
 * listeners, and a short single-page app whose root handles every click by
 * delegation (the root is not a control; the controls inside keep their refs).
 * Runs the built page layer (dist-inject/, `npm run build`) in Chromium.
 */
import { resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlaywrightPageDriver, installPageAgent } from '../../bench/playwright-page-driver.ts';
import { renderObservation } from '../../src/core/page/render-observation.ts';
import { createOfflinePolicy } from '../../src/core/policy/offline-policy.ts';
import { launchPlain } from '../support/chromium.ts';
import { startStaticServer, type StaticServer } from '../support/static-server.ts';

const SITES = resolve(import.meta.dirname, '../fixtures/sites');

let server: StaticServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  server = await startStaticServer(SITES);
  browser = await launchPlain();
});
afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
  await browser?.close();
  await server?.close();
});

async function open(path: string) {
  const context = await browser.newContext();
  contexts.push(context);
  await installPageAgent(context);
  const page = await context.newPage();
  await page.goto(`${server.origin}${path}`, { waitUntil: 'load' });
  return { page, driver: createPlaywrightPageDriver(page, { timeoutMs: 10_000 }) };
}

const clicks = (page: Page) => page.evaluate(() => (globalThis as unknown as { clicks: string[] }).clicks);

/** One step of the loop: observe, let the offline policy propose, run its first candidate. */
async function oneStep(driver: ReturnType<typeof createPlaywrightPageDriver>, task: string) {
  const observation = await driver.observe({});
  const proposal = await createOfflinePolicy().propose({ task, observation, renderedObservation: renderObservation(observation), temperature: 0, history: [], sections: [], numCandidates: 3 });
  const first = proposal.candidates[0]!;
  const result = await driver.act(first.action);
  return { observation, first, result };
}

describe('controls without an ARIA role, end to end', () => {
  it('a page whose only controls are spans with click listeners: the policy clicks the one the task names', async () => {
    const { page, driver } = await open('/clickable/span-controls.html');
    const { observation, first, result } = await oneStep(driver, 'Open the seed inventory');
    const tabs = observation.nodes.filter((n) => n.role === 'clickable').map((n) => n.name);
    expect(tabs).toEqual(['Watering log', 'Seed inventory', 'Frost alerts']);
    expect(first.action.type).toBe('click');
    expect(result.ok).toBe(true);
    expect(await clicks(page)).toEqual(['Seed inventory']);
  });

  it('an app root listening by delegation is not one clickable line; the controls inside keep their refs', async () => {
    const { page, driver } = await open('/clickable/delegated-root.html');
    const { observation, result } = await oneStep(driver, 'Show the breads');
    const clickable = observation.nodes.filter((n) => n.ref !== null && n.role === 'clickable');
    expect(clickable.map((n) => n.name)).toEqual(['Soups', 'Breads']);
    // The page's text stays text lines (a person reads it), not the name of a control.
    expect(observation.nodes.some((n) => n.kind === 'text' && /Twelve recipes/.test(n.name))).toBe(true);
    expect(result.ok).toBe(true);
    expect(await clicks(page)).toEqual(['bread']);
  });
});
