/**
 * Safe navigation in the built extension: a link with target=_blank opens a
 * new tab, the agent follows it there (the step's result says so, the
 * episode and the active tab move, so the panel that follows the active tab
 * follows too), and go_back on the new tab's first page is refused.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Episode } from '../../src/core/episode/episode.ts';
import { launchWithExtension, type ExtensionBrowser } from '../support/chromium.ts';
import { startStaticServer, type StaticServer } from '../support/static-server.ts';
import { messagesFrom } from '../support/extension-messaging.ts';
import { disableExploration } from '../support/extension-settings.ts';

let browser: ExtensionBrowser;
let server: StaticServer;
let ui: Page;
const { request } = messagesFrom(() => ui);

async function waitFor(episodeId: string, statuses: Episode['status'][]): Promise<Episode> {
  for (let i = 0; i < 300; i++) {
    const ep = await request<Episode>({ type: 'episode.get', episodeId });
    if (statuses.includes(ep.status)) return ep;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`episode never reached ${statuses.join('|')}`);
}

beforeAll(async () => {
  server = await startStaticServer(join(import.meta.dirname, '../fixtures/sites'));
  browser = await launchWithExtension();
  ui = await browser.context.newPage();
  await ui.goto(`chrome-extension://${browser.extensionId}/src/ui/sidepanel/index.html`);
  await disableExploration(ui);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('new tabs and go_back in the built extension', () => {
  it('follows a target=_blank link into the new tab and refuses to go back past its first page', async () => {
    const site = await browser.context.newPage();
    const url = `${server.origin}/corpus/new-tab-link.html`;
    await site.goto(url);
    const tabId = await browser.serviceWorker.evaluate(async (u) => (await chrome.tabs.query({ url: u }))[0]!.id!, url);

    const started = await request<Episode>({ type: 'episode.start', tabId, task: 'Open the partner site' });
    let ep = await waitFor(started.id, ['awaiting_approval']);
    ep = await request<Episode>({ type: 'episode.decide', episodeId: ep.id, decision: { kind: 'edit', action: 'click(<link "Open partner site">)', step: ep.steps.length - 1 } });
    ep = await waitFor(ep.id, ['awaiting_approval']);

    const result = ep.steps[0]!.result;
    expect(result?.ok).toBe(true);
    const opened = result?.ok ? result.openedTab : undefined;
    expect(opened?.url).toBe(`${server.origin}/corpus/span-link.html`);
    expect(ep.tabId).toBe(opened?.tabId);
    expect(ep.tabId).not.toBe(tabId);
    // The next step observed the new tab.
    expect(ep.steps[1]!.url).toBe(`${server.origin}/corpus/span-link.html`);
    // The new tab is the active one: the panel, which follows the active tab, shows this episode.
    const active = await browser.serviceWorker.evaluate(async (id) => (await chrome.tabs.get(id)).active, ep.tabId!);
    expect(active).toBe(true);
    const current = await request<Episode | null>({ type: 'episode.current', tabId: ep.tabId! });
    expect(current?.id).toBe(ep.id);

    // go_back on the first page of the new tab would leave the task: refused, the page stays.
    ep = await request<Episode>({ type: 'episode.decide', episodeId: ep.id, decision: { kind: 'edit', action: 'go_back()', step: ep.steps.length - 1 } });
    ep = await waitFor(ep.id, ['awaiting_approval']);
    expect(ep.steps[1]!.result).toEqual({ ok: false, code: 'invalid_action', message: 'this is the first page of the task: going back would leave it' });
    expect(ep.steps[2]!.url).toBe(`${server.origin}/corpus/span-link.html`);
    await request({ type: 'episode.stop', episodeId: ep.id });
  });
});
