/**
 * Commits on the wrong target through the built extension (issue 34, part 6).
 * The person approved "Delete page" on the home page's delete form in two
 * tasks that named it, so under "Ask only for what I haven't approved" a third
 * such task deletes it unasked. A task naming another page, reached on that
 * same form (the wrong item), does not run: it asks, and the step says why.
 * Before, earned autonomy ran the delete there too.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Episode } from '../../src/core/episode/episode.ts';
import { launchWithExtension, type ExtensionBrowser } from '../support/chromium.ts';
import { messagesFrom } from '../support/extension-messaging.ts';
import { disableExploration } from '../support/extension-settings.ts';
import { startStaticServer, type StaticServer } from '../support/static-server.ts';

const DELETE = 'click(<button "Delete page">)';

let browser: ExtensionBrowser;
let server: StaticServer;
let ui: Page;
let site: Page;
let tabId: number;
let formUrl: string;

const { request } = messagesFrom(() => ui);
const getEpisode = (episodeId: string) => request<Episode>({ type: 'episode.get', episodeId });

async function until(episodeId: string, check: (e: Episode) => boolean): Promise<Episode> {
  await expect.poll(async () => check(await getEpisode(episodeId)), { timeout: 30_000 }).toBe(true);
  return getEpisode(episodeId);
}

/** Opens the home page's delete form and starts the task; resolves when the first step asks or ran. */
async function startOnForm(task: string): Promise<Episode> {
  await site.goto(formUrl);
  const started = await request<Episode>({ type: 'episode.start', tabId, task });
  // The gate saves its verdict on the step whether it asks or runs it.
  return until(started.id, (e) => e.steps[0]?.autonomy !== undefined || !['running', 'awaiting_approval'].includes(e.status));
}

beforeAll(async () => {
  server = await startStaticServer(join(import.meta.dirname, '../fixtures/sites'));
  formUrl = `${server.origin}/moving/delete-page.html`;
  browser = await launchWithExtension();
  site = await browser.context.newPage();
  await site.goto(formUrl);
  ui = await browser.context.newPage();
  await ui.goto(`chrome-extension://${browser.extensionId}/src/ui/sidepanel/index.html`);
  await disableExploration(ui);
  await request({ type: 'askMode.set', origin: server.origin, mode: 'unapproved-only' });
  tabId = await ui.evaluate(async (u) => (await chrome.tabs.query({ url: u }))[0]!.id!, formUrl);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('a delete form reached from the wrong item', () => {
  it('runs an approved delete on its own item unasked, and asks with the reason on another', async () => {
    for (const n of [1, 2]) {
      const ep = await startOnForm(`Delete the page "Main Page" (request ${n})`);
      expect(ep.status).toBe('awaiting_approval');
      const index = ep.steps[0]!.candidates.findIndex((c) => c.semantic === DELETE);
      expect(index).toBeGreaterThanOrEqual(0);
      await request({ type: 'episode.decide', episodeId: ep.id, decision: { kind: 'pick', index, step: 0, candidate: DELETE } });
      await site.waitForURL(/saved\.html/);
      await request({ type: 'episode.stop', episodeId: ep.id });
    }

    // Approved in two tasks on this page: a task that names this page runs it unasked.
    const own = await startOnForm('Delete the page "Main Page"');
    expect(own.steps[0]!.autonomy).toMatchObject({ ran: true });
    await site.waitForURL(/saved\.html/);
    await request({ type: 'episode.stop', episodeId: own.id });

    // The same form, a task that names another page: it asks, and says why.
    const wrong = await startOnForm('Delete the page "Golden Gate Bridge"');
    expect(wrong.status).toBe('awaiting_approval');
    expect(wrong.steps[0]!.candidates[0]!.semantic).toBe(DELETE);
    expect(wrong.steps[0]!.autonomy).toEqual({
      ran: false,
      reason: 'the task names "Golden Gate Bridge", and this page does not show it (title "Delete Main Page — moving pages"; headings "Delete Main Page"): "Delete page" posts a form, and may act on the wrong item',
    });
    expect(site.url()).toBe(formUrl);
    await request({ type: 'episode.stop', episodeId: wrong.id });
  });
});
