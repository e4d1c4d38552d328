/**
 * Show me in the benchmark's world (bench/show-me.ts): the content script's
 * recorder runs with the page agent in its isolated world of a Playwright
 * page; Playwright's clicks are the person's; the core TeachingSession and
 * AgentController (offline policy) record the shown step as the step's
 * action, through the decision path — the primitive a scripted demo teaches
 * with. Page written for the test (teach.html). Needs `npm run build`.
 */
import { resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlaywrightPageDriver, installPageAgent } from '../../bench/playwright-page-driver.ts';
import { attachShowMe, type PlaywrightShowMe } from '../../bench/show-me.ts';
import { AgentController } from '../../src/core/agent/agent-controller.ts';
import { TeachingSession } from '../../src/core/agent/teaching-session.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import { createOfflinePolicy } from '../../src/core/policy/offline-policy.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import { launchPlain } from '../support/chromium.ts';
import { startStaticServer, type StaticServer } from '../support/static-server.ts';

const TAB = 1;

/** The recorder's report crosses from the page asynchronously: wait until teaching is over, then for the session's work. */
async function taught(controller: AgentController, teach: PlaywrightShowMe, episodeId: string) {
  await expect.poll(async () => (await controller.get(episodeId)).teaching, { timeout: 15_000 }).toBeUndefined();
  await teach.idle();
  return controller.settled(episodeId);
}
let server: StaticServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  server = await startStaticServer(resolve(import.meta.dirname, '../fixtures/sites'));
  browser = await launchPlain();
});
afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
  await browser?.close();
  await server?.close();
});

async function setup(): Promise<{ page: Page; controller: AgentController; session: TeachingSession; teach: PlaywrightShowMe }> {
  const context = await browser.newContext();
  contexts.push(context);
  await installPageAgent(context);
  const page = await context.newPage();
  await page.goto(`${server.origin}/teach.html`, { waitUntil: 'load' });
  const store = new InMemoryEpisodeStore();
  const logger = { info: () => {}, warn: () => {}, error: () => {} };
  let id = 0;
  const settings = { ...DEFAULT_SETTINGS, agent: { ...DEFAULT_SETTINGS.agent, selection: 'argmax' as const } };
  const controller = new AgentController({
    episodes: store, pageFor: () => createPlaywrightPageDriver(page, { timeoutMs: 10_000 }), policy: () => createOfflinePolicy(),
    learners: () => [], evaluator: () => null, settings: () => settings, clock: { now: () => Date.now() }, logger, newId: () => `ep-${++id}`,
  });
  let session: TeachingSession | null = null;
  const teach = await attachShowMe(page, () => session!, TAB);
  session = new TeachingSession({ controller, episodes: store, page: teach.page, clock: { now: () => Date.now() }, logger });
  return { page, controller, session, teach };
}

describe('Show me with Playwright as the person', () => {
  it('a click in the page becomes the step\'s action (correction "show"); the proposal is rejected; the agent proposes again', async () => {
    const { page, controller, session, teach } = await setup();
    const ep = await controller.start({ task: 'Reserve a seat in the reading room', startUrl: page.url(), tabId: TAB });
    const proposed = ep.steps[0]!.candidates[0]!.semantic;
    expect(proposed).not.toBe('click(<button "Book a desk">)');
    await session.begin(ep.id, 'show');
    await page.click('#book');
    const next = await taught(controller, teach, ep.id);
    expect(teach.malformed).toEqual([]);
    expect(next.steps[0]!.chosen).toEqual({ action: 'click(<button "Book a desk">)', semantic: 'click(<button "Book a desk">)', decision: 'edited', correction: 'show' });
    expect(next.steps[0]!.rejected).toEqual([proposed]);
    expect(next.status).toBe('awaiting_approval');
    expect(next.steps).toHaveLength(2);
  });

  it('a shown link click that navigates is recorded with the navigation; a right click ends Show me', async () => {
    const { page, controller, session, teach } = await setup();
    const ep = await controller.start({ task: 'Go to the other rooms', startUrl: page.url(), tabId: TAB });
    await session.begin(ep.id, 'show');
    await page.click('h1', { button: 'right' });
    const refused = await taught(controller, teach, ep.id);
    expect(refused.error).toMatch(/^Show me ended: Apprentice cannot record a right click/);

    await session.begin(ep.id, 'show');
    await page.click('#away');
    const moved = await taught(controller, teach, ep.id);
    expect(moved.steps[0]!.chosen).toMatchObject({ semantic: 'click(<link "Other rooms">)', correction: 'show' });
    expect(moved.steps[0]!.result).toEqual({ ok: true, navigated: true });
    expect(moved.steps[1]!.url).toBe(`${server.origin}/nav-a.html`);
    expect(moved.teaching).toBeUndefined();
  });
});
