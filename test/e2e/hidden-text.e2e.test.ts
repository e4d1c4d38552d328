/**
 * Hidden-text rules (issue 24), in Chromium on a page written for them: text
 * scaled below 0.3, under 6 px, under 0.1 opacity, collapsed by negative
 * letter-spacing, in a box of 3 px or less, behind a degenerate clip-path or
 * a transparent mask, same-colour text "shown" by a transparent shadow or a
 * hairline stroke, and text in tiny or transparent same-origin frames is left
 * out; each trick's visible look-alike stays.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageObservation } from '../../src/core/page/observation.ts';
import { launchPlain } from '../support/chromium.ts';
import { startStaticServer, type StaticServer } from '../support/static-server.ts';

const BUNDLE = resolve(import.meta.dirname, '../../dist-inject/page-agent.js');
let server: StaticServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  if (!existsSync(BUNDLE)) throw new Error('dist-inject/page-agent.js is missing: run `npm run build` first');
  server = await startStaticServer(resolve(import.meta.dirname, '../fixtures/sites'));
  browser = await launchPlain();
  page = await browser.newPage({ viewport: { width: 1000, height: 1400 } });
  await page.addInitScript({ path: BUNDLE });
  await page.goto(`${server.origin}/hidden-tricks.html`);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('hidden text is left out of the observation', () => {
  it('drops each trick and keeps each visible look-alike', async () => {
    const obs = await page.evaluate(() => globalThis.__apprentice!.observe({ maxChars: 100_000 })) as PageObservation;
    const text = JSON.stringify(obs.nodes.map((n) => n.name));
    for (const hidden of ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot', 'Golf', 'Hotel', 'India', 'Juliet', 'Kilo', 'Lima', 'Mike', 'November', 'Oscar']) {
      expect(text.includes(hidden), hidden).toBe(false);
    }
    for (const shown of ['Scaled but readable', 'Small print', 'Half transparent', 'Tight letters', 'Faded out', 'White with shadow', 'Outlined', 'Framed visible']) {
      expect(text.includes(shown), shown).toBe(true);
    }
    expect(obs.omissions.some((o) => o.startsWith('hidden frame "tiny frame"'))).toBe(true);
    // Issue 30: a frame's position and the clips above it count, as for text.
    expect(obs.omissions.filter((o) => /^hidden frame "(off-page|clipped) frame"/.test(o))).toEqual([
      'hidden frame "off-page frame" (300×60 px, off the page): its content is left out',
      'hidden frame "clipped frame" (300×60 px, clipped): its content is left out',
    ]);
  });
});
