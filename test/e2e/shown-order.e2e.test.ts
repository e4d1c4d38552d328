/**
 * A demonstration keeps the page it was done on (issue 35, loose end of
 * session 11), on the built extension in real Chromium, against a page
 * written for this test (shown/tags.html: a tag box that Attach empties into
 * a chip, and Save, on one URL). The person shows type → Attach → Save; each
 * recorded step carries the page as it was just before the person acted, so
 * the step after Attach is filed after it, as an approved step would be. The
 * next attempt, alone on memory (shipped settings but replay off, so no plan
 * orders the steps), proposes the steps in the order shown. Before, the steps before and after
 * Attach were one state, memory could not tell them apart, and the offline
 * policy's Save came first.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Episode } from '../../src/core/episode/episode.ts';
import { launchWithExtension, type ExtensionBrowser } from '../support/chromium.ts';
import { startStaticServer, type StaticServer } from '../support/static-server.ts';
import { messagesFrom } from '../support/extension-messaging.ts';

const TASK = 'Tag my reading list with "crime"';
const FILL = 'fill(<textbox "Tag">, "crime")';
const ADD = 'click(<button "Attach">)';
const SAVE = 'click(<button "Save">)';

let browser: ExtensionBrowser;
let server: StaticServer;
let site: Page;
let ui: Page;
let pageUrl: string;
let tabId: number;

const { request } = messagesFrom(() => ui);
const getEpisode = (episodeId: string) => request<Episode>({ type: 'episode.get', episodeId });
async function until(episodeId: string, check: (e: Episode) => boolean, timeout = 20_000): Promise<Episode> {
  await expect.poll(async () => check(await getEpisode(episodeId)), { timeout }).toBe(true);
  return getEpisode(episodeId);
}

beforeAll(async () => {
  server = await startStaticServer(join(import.meta.dirname, '../fixtures/sites'));
  pageUrl = `${server.origin}/shown/tags.html`;
  browser = await launchWithExtension();
  site = await browser.context.newPage();
  await site.goto(pageUrl);
  ui = await browser.context.newPage();
  await ui.goto(`chrome-extension://${browser.extensionId}/src/ui/sidepanel/index.html`);
  // Memory alone: a replayed plan would keep the order whatever the states say.
  await ui.evaluate(async () => {
    const got = (await chrome.runtime.sendMessage({ type: 'settings.get' })) as { value: Record<string, unknown> };
    const set = (await chrome.runtime.sendMessage({ type: 'settings.set', settings: { ...got.value, replay: { enabled: false } } })) as { ok: boolean };
    if (!set.ok) throw new Error('settings.set failed');
  });
  tabId = await browser.serviceWorker.evaluate(async (url) => (await chrome.tabs.query({ url }))[0]!.id!, pageUrl);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('a shown order on one URL', () => {
  it('files each shown step under the state the page showed before it, and the next attempt alone keeps the order', async () => {
    const demo = await request<Episode>({ type: 'demo.start', tabId, task: TASK });
    await site.bringToFront();
    await site.click('#tag');
    await site.fill('#tag', 'crime');
    await site.click('#add');
    await expect.poll(() => site.textContent('#chips')).toBe('crime');
    await site.click('#save');
    await until(demo.id, (e) => e.steps.length === 3);
    await request<Episode>({ type: 'demo.stop', episodeId: demo.id, outcome: 'success' });

    const shown = await getEpisode(demo.id);
    expect(shown.steps.map((s) => s.chosen?.semantic)).toEqual([FILL, ADD, SAVE]);
    // The page before each step: the box empty, then holding the tag, then empty with the tag a chip.
    expect(shown.steps.map((s) => s.effectiveState)).toEqual([[], [FILL], [FILL, ADD]]);
    const tagLine = (digest = '') => digest.split('\n').find((l) => l.includes('textbox "Tag"'))?.replace(/^\s*\[\d+\] /, '');
    expect(shown.steps.map((s) => tagLine(s.pageDigest))).toEqual(['textbox "Tag" focused', 'textbox "Tag" value="crime" focused', 'textbox "Tag"']);
    expect(new Set(shown.steps.map((s) => s.pageKey)).size).toBe(3);

    // Alone: each proposal is the step shown in that state.
    await site.goto(pageUrl);
    const alone = await request<Episode>({ type: 'episode.start', tabId, task: TASK });
    const proposed: string[] = [];
    for (let k = 0; k < 3; k++) {
      const e = await until(alone.id, (x) => x.status === 'awaiting_approval' && x.steps.length === k + 1 && x.steps[k]!.chosen === null, 30_000);
      const top = e.steps[k]!.candidates[0]!.semantic;
      proposed.push(top);
      if (top !== [FILL, ADD, SAVE][k]) break;
      await request({ type: 'episode.decide', episodeId: alone.id, decision: { kind: 'approve', step: k, candidate: top } });
    }
    expect(proposed).toEqual([FILL, ADD, SAVE]);
    await expect.poll(() => site.evaluate(() => (globalThis as { __saved?: string[] }).__saved ?? null)).toEqual(['crime']);
    await request({ type: 'episode.stop', episodeId: alone.id });
  }, 120_000);
});
