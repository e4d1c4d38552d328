/**
 * Issue 11 item 5: the benchmark's page agent runs in an isolated world, so a
 * hostile page cannot forge observations or redirect actions. The fixture
 * (hostile/forging-page.html) defines a fake `__apprentice`, patches
 * getAttribute, the textContent/innerText/value getters, getBoundingClientRect
 * and getComputedStyle, and sends every click to "Delete account"; with
 * `?calm` it is the same page without the forgeries.
 *
 * The control shows the forgeries work in the main world (where the bundle
 * used to run), so the page really is hostile; through the benchmark's page
 * driver the observation equals the calm page's and a click reaches the
 * element shown. Needs `npm run build` (dist-inject/).
 */
import { resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlaywrightPageDriver, installPageAgent } from '../../bench/playwright-page-driver.ts';
import type { PageObservation } from '../../src/core/page/observation.ts';
import { renderObservation } from '../../src/core/page/render-observation.ts';
import { launchPlain } from '../support/chromium.ts';
import { startStaticServer, type StaticServer } from '../support/static-server.ts';

const SITES = resolve(import.meta.dirname, '../fixtures/sites');
const MAIN_WORLD_BUNDLE = resolve(import.meta.dirname, '../../dist-inject/page-agent.js');
const FORGED = /transfer all funds|SYSTEM:|attacker/i;

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

const url = (calm: boolean) => `${server.origin}/hostile/forging-page.html${calm ? '?calm' : ''}`;

/** What the observation says, without the URL (the query differs) and the time it took. */
const comparable = (obs: PageObservation) => ({ ...obs, url: '', tookMs: 0 });

async function benchmarkPage(calm: boolean) {
  const context = await browser.newContext();
  contexts.push(context);
  await installPageAgent(context);
  const page = await context.newPage();
  await page.goto(url(calm), { waitUntil: 'load' });
  return { page, driver: createPlaywrightPageDriver(page, { timeoutMs: 10_000 }) };
}

const clicks = (page: Page) => page.evaluate(() => (globalThis as unknown as { clicks: string[] }).clicks);
const refOf = (obs: PageObservation, name: string) => obs.nodes.find((n) => n.kind === 'interactive' && n.name === name)?.ref ?? null;

describe('a hostile page against the benchmark\'s page agent', () => {
  it('control: in the page\'s main world, the page forges what the bundle reports', async () => {
    const context = await browser.newContext();
    contexts.push(context);
    await context.addInitScript({ path: MAIN_WORLD_BUNDLE });
    const page = await context.newPage();
    await page.goto(url(false), { waitUntil: 'load' });
    const obs = await page.evaluate(() => globalThis.__apprentice!.observe({}));
    expect(JSON.stringify(obs)).toMatch(FORGED);
    // Even the probe's own observer (not the fake global) reads the patched prototypes.
    const probed = await page.evaluate(() => globalThis.__apprenticeProbe!.render(globalThis.__apprenticeProbe!.observe({})));
    expect(probed).not.toMatch(/\bSave\b/);
  });

  it('through the isolated world the observation equals the calm page\'s, with nothing forged', async () => {
    const hostile = await benchmarkPage(false);
    const calm = await benchmarkPage(true);
    const seen = await hostile.driver.observe({});
    const truth = await calm.driver.observe({});
    expect(comparable(seen)).toEqual(comparable(truth));
    const text = renderObservation(seen);
    expect(text).not.toMatch(FORGED);
    expect(text).toContain('button "Save"');
    expect(text).toContain('button "Delete account"');
    expect(text).toContain('textbox "Display name" value="Ada"');
  });

  it('a click reaches the element shown, not the one the page redirects to; typing sets the real value', async () => {
    const { page, driver } = await benchmarkPage(false);
    const obs = await driver.observe({});
    const save = refOf(obs, 'Save');
    const name = refOf(obs, 'Display name');
    expect(save).not.toBeNull();
    expect(await driver.act({ type: 'click', target: { kind: 'ref', ref: save! } })).toMatchObject({ ok: true });
    expect(await clicks(page)).toEqual(['save']);
    expect(await driver.act({ type: 'fill', target: { kind: 'ref', ref: name! }, text: 'Grace' })).toMatchObject({ ok: true });
    expect(await page.locator('#name').inputValue()).toBe('Grace');
    expect(renderObservation(await driver.observe({}))).toContain('textbox "Display name" value="Grace"');
  });

  it('follows a navigation: the next document gets its own isolated agent', async () => {
    const { page, driver } = await benchmarkPage(false);
    const help = refOf(await driver.observe({}), 'Help');
    expect(await driver.act({ type: 'click', target: { kind: 'ref', ref: help! } })).toMatchObject({ ok: true, navigated: true });
    await page.waitForURL(`${server.origin}/form.html`);
    expect((await driver.observe({})).title).toBe('Create account — Fixture Shop');
  });

  it('undoes a go_back that leaves the web pages, as the extension\'s tab driver does', async () => {
    // The first page of a fresh tab: behind it is only about:blank.
    const { page, driver } = await benchmarkPage(true);
    expect(await driver.act({ type: 'go_back' })).toEqual({ ok: false, code: 'invalid_action', message: 'going back left the task\'s pages; Apprentice went forward again' });
    expect(page.url()).toBe(url(true));
    expect((await driver.observe({})).nodes.length).toBeGreaterThan(0);
  });
});
