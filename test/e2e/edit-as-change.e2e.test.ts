/**
 * Edits as changes through the built extension (issue 34, part 5). A person
 * demonstrates adding one line to a long text area; the demonstration keeps
 * the edit as the change (append "\n[[Category:Bridges]]"), not the whole
 * text. The next attempt, alone on a later revision of the page, proposes that
 * change, the panel says it in words, and once approved it lands on the text
 * the field holds now. Before, the whole old text plus the line was kept and
 * typed back over the later revision.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Episode } from '../../src/core/episode/episode.ts';
import { launchWithExtension, type ExtensionBrowser } from '../support/chromium.ts';
import { messagesFrom } from '../support/extension-messaging.ts';
import { disableExploration } from '../support/extension-settings.ts';
import { startStaticServer, type StaticServer } from '../support/static-server.ts';

const TASK = 'Add the page to the category "Bridges"';
const CHANGE = 'fill(<textbox "Content">, "\\n[[Category:Bridges]]", "append")';

let browser: ExtensionBrowser;
let server: StaticServer;
let ui: Page;
let site: Page;
let tabId: number;
let pageUrl: string;

const { request } = messagesFrom(() => ui);
const getEpisode = (episodeId: string) => request<Episode>({ type: 'episode.get', episodeId });

async function until(episodeId: string, check: (e: Episode) => boolean): Promise<Episode> {
  await expect.poll(async () => check(await getEpisode(episodeId)), { timeout: 30_000 }).toBe(true);
  return getEpisode(episodeId);
}

beforeAll(async () => {
  server = await startStaticServer(join(import.meta.dirname, '../fixtures/sites'));
  pageUrl = `${server.origin}/moving/edit-page.html`;
  browser = await launchWithExtension();
  site = await browser.context.newPage();
  await site.goto(pageUrl);
  ui = await browser.context.newPage();
  await ui.goto(`chrome-extension://${browser.extensionId}/src/ui/sidepanel/index.html`);
  await disableExploration(ui);
  tabId = await ui.evaluate(async (u) => (await chrome.tabs.query({ url: u }))[0]!.id!, pageUrl);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('a line added to a long text', () => {
  it('is demonstrated as the change, and replayed on a later revision of the text', async () => {
    const revision1 = await site.inputValue('#content');
    expect(revision1.split('\n').length).toBeGreaterThan(15);

    // Taught: the person adds the line at the end, as a person edits a page.
    const demo = await request<Episode>({ type: 'demo.start', tabId, task: TASK });
    await site.bringToFront();
    await site.click('#content');
    await site.keyboard.press('Control+End');
    await site.keyboard.type('\n[[Category:Bridges]]');
    await site.click('#summary'); // the text area loses focus: its edit is recorded
    await until(demo.id, (e) => e.steps.length === 1);
    expect(await site.inputValue('#content')).toBe(`${revision1}\n[[Category:Bridges]]`);
    const taught = await request<Episode>({ type: 'demo.stop', episodeId: demo.id, outcome: 'success' });
    expect(taught.steps.map((s) => s.chosen?.semantic)).toEqual([CHANGE]);

    // Alone, on the same address showing a later revision (someone else edited the page since).
    await site.goto(pageUrl);
    const revision2 = await site.evaluate(() => {
      const text = (window as unknown as { revisions: Record<string, string> }).revisions['2']!;
      document.querySelector<HTMLTextAreaElement>('#content')!.value = text;
      return text;
    });
    const started = await request<Episode>({ type: 'episode.start', tabId, task: TASK });
    const ep = await until(started.id, (e) => e.status === 'awaiting_approval');
    const step = ep.steps[0]!;
    const index = step.candidates.findIndex((c) => c.semantic === CHANGE);
    expect(index).toBe(0);

    // The panel says the change in words.
    await ui.goto(`chrome-extension://${browser.extensionId}/src/ui/sidepanel/index.html?tabId=${tabId}`);
    await ui.getByText("Edit “Content”: adds the line '[[Category:Bridges]]' at the end").first().waitFor({ timeout: 15_000 });

    const decided = await request<Episode>({ type: 'episode.decide', episodeId: ep.id, decision: { kind: 'pick', index, step: 0, candidate: CHANGE } });
    const after = await until(decided.id, (e) => e.steps[0]?.result !== null && e.steps[0]?.result !== undefined);
    expect(after.steps[0]!.result).toMatchObject({ ok: true });
    // The line is added to the text the field holds now: revision 2 is kept, revision 1 is not typed back.
    expect(await site.inputValue('#content')).toBe(`${revision2}\n[[Category:Bridges]]`);
    await request({ type: 'episode.stop', episodeId: ep.id });
  });
});
