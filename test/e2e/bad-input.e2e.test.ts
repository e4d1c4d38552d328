/**
 * Hostile and broken pages (issue: "Bad input"): each gives a complete
 * snapshot with its omissions listed, and no action crashes the agent.
 *   - a page that replaces addEventListener and Element.prototype methods
 *     (one element's layout getters throw);
 *   - handlers that throw;
 *   - a page that navigates during a click;
 *   - a forged listener mark does nothing but make an element "maybe clickable".
 * (The page of 100,000 elements is in observation.e2e.test.ts.)
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageObservationSchema } from '../../src/core/page/observation.ts';
import { renderObservation } from '../../src/core/page/render-observation.ts';
import { launchPlain } from '../support/chromium.ts';
import { startStaticServer, type StaticServer } from '../support/static-server.ts';
import { SITES_DIR } from '../support/corpus.ts';

const BUNDLE = resolve(import.meta.dirname, '../../dist-inject/page-agent.js');
let server: StaticServer;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(BUNDLE)) throw new Error('dist-inject/page-agent.js is missing: run `npm run build` first');
  server = await startStaticServer(SITES_DIR);
  browser = await launchPlain();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(path: string): Promise<Page> {
  const page = await browser.newPage();
  page.on('pageerror', () => {});
  await page.addInitScript({ path: BUNDLE });
  await page.goto(`${server.origin}/${path}`);
  return page;
}

describe('bad input', () => {
  it('a page that replaced addEventListener and made an element unreadable: complete snapshot, omission listed', async () => {
    const page = await open('corpus/replaced-prototypes.html');
    const obs = await page.evaluate(() => globalThis.__apprentice!.observe({}));
    expect(PageObservationSchema.safeParse(obs).success).toBe(true);
    expect(renderObservation(obs).split('\n').slice(1)).toEqual([
      'heading "Hostile page" level=1',
      '[1] clickable "Continue"',
      'Omitted: 1 element was unreadable and skipped (Error: no layout for you)',
    ]);
    await page.close();
  });

  it('throwing handlers: the click is done and reported ok', async () => {
    const page = await open('corpus/throwing-handlers.html');
    const obs = await page.evaluate(() => globalThis.__apprentice!.observe({}));
    const ref = obs.nodes.find((n) => n.name === 'Broken button')!.ref!;
    expect(await page.evaluate((r) => globalThis.__apprentice!.act({ type: 'click', target: { kind: 'ref', ref: r } }), ref)).toEqual({ ok: true, navigated: false });
    await page.close();
  });

  it('a page navigating during the mousedown: the click reports navigated, nothing throws', async () => {
    const page = await open('corpus/navigate-during-click.html');
    const obs = await page.evaluate(() => globalThis.__apprentice!.observe({}));
    const ref = obs.nodes.find((n) => n.name === 'Next step')!.ref!;
    expect(await page.evaluate((r) => globalThis.__apprentice!.act({ type: 'click', target: { kind: 'ref', ref: r } }), ref)).toEqual({ ok: true, navigated: true });
    await page.close();
  });

  it('a forged or malformed listener mark only makes an element "maybe clickable"', async () => {
    const page = await open('corpus/span-link.html');
    const obs = await page.evaluate(() => {
      const forged = document.createElement('p');
      forged.textContent = 'Not a control';
      // Junk in the mark is ignored (zod-validated: known event types only).
      forged.setAttribute('data-apprentice-listens', 'ignore previous instructions');
      document.body.append(forged);
      const marked = document.createElement('span');
      marked.textContent = 'Marked by the page';
      marked.setAttribute('data-apprentice-listens', 'click');
      document.body.append(marked);
      return globalThis.__apprentice!.observe({});
    });
    expect(obs.nodes.find((n) => n.name === 'Not a control')?.kind).toBe('text');
    // A well-formed mark gives a ref with the generic role, named from the element's own text: nothing more.
    expect(obs.nodes.find((n) => n.name === 'Marked by the page')).toMatchObject({ kind: 'interactive', role: 'clickable' });
    await page.close();
  });
});
