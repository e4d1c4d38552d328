/**
 * A stale target through the built extension (issue 34): the agent proposes
 * a fill on the server's form, the page's script then replaces the form's
 * controls, and the person approves. The fill lands on the new control (the
 * only textbox with that name) and the step says so; before, the step was
 * refused ("[n] is not on the page any more") and the attempt paused.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Episode } from '../../src/core/episode/episode.ts';
import { launchWithExtension, type ExtensionBrowser } from '../support/chromium.ts';
import { messagesFrom } from '../support/extension-messaging.ts';
import { disableExploration } from '../support/extension-settings.ts';
import { startStaticServer, type StaticServer } from '../support/static-server.ts';

let browser: ExtensionBrowser;
let server: StaticServer;
let ui: Page;
let site: Page;

const { request } = messagesFrom(() => ui);

async function waitFor(episodeId: string, statuses: Episode['status'][]): Promise<Episode> {
  for (let i = 0; i < 200; i++) {
    const ep = await request<Episode>({ type: 'episode.get', episodeId });
    if (statuses.includes(ep.status)) return ep;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`episode never reached ${statuses.join('|')}`);
}

beforeAll(async () => {
  server = await startStaticServer(join(import.meta.dirname, '../fixtures/sites'));
  browser = await launchWithExtension();
  site = await browser.context.newPage();
  // ?manual: the page replaces its form when the test says, after the agent has read it.
  await site.goto(`${server.origin}/moving/hydrating-form.html?manual`);
  ui = await browser.context.newPage();
  await ui.goto(`chrome-extension://${browser.extensionId}/src/ui/sidepanel/index.html`);
  await disableExploration(ui);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('a control the page replaced after it was shown', () => {
  it('is found again by its role and name, and the approved fill lands on it', async () => {
    const tabId = await browser.serviceWorker.evaluate(async (url) => (await chrome.tabs.query({ url }))[0]!.id!, `${server.origin}/moving/hydrating-form.html?manual`);
    const started = await request<Episode>({ type: 'episode.start', tabId, task: 'Set the display name to "Ada"' });
    let ep = await waitFor(started.id, ['awaiting_approval']);
    const step = ep.steps[0]!;
    const index = step.candidates.findIndex((c) => c.semantic === 'fill(<textbox "Display name">, "Ada")');
    expect(index).toBeGreaterThanOrEqual(0);
    const shownRef = /\[(\d+)\]/.exec(step.candidates[index]!.action)![1]!;
    await site.evaluate(() => (window as unknown as { hydrate(): void }).hydrate());
    ep = await request<Episode>({ type: 'episode.decide', episodeId: ep.id, decision: { kind: 'pick', index, step: 0, candidate: step.candidates[index]!.semantic } });
    ep = await waitFor(ep.id, ['awaiting_approval', 'paused', 'awaiting_verdict']);
    expect(await site.inputValue('#display[data-hydrated]')).toBe('Ada');
    const result = ep.steps[0]!.result;
    expect(result).toMatchObject({ ok: true, note: expect.stringMatching(new RegExp(`^\\[${shownRef}\\] was replaced on the page; acted on \\[\\d+\\], the only textbox "Display name" there now`)) });
    expect(ep.status).toBe('awaiting_approval');
    await request({ type: 'episode.stop', episodeId: ep.id });
  });
});
