/**
 * The ceiling check over the control-pattern corpus, through the injected
 * page agent (the same code as the content script): every scripted solution
 * in semantic form reaches its goal through observe → resolve → act, and our
 * refs reach the page's ground-truth marks. Unsupported patterns are in the
 * corpus with their supported alternative as the solution.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchPlain } from '../support/chromium.ts';
import { startStaticServer, type StaticServer } from '../support/static-server.ts';
import { SITES_DIR, injectedAgent, listCorpus, markCoverage, runSolution } from '../support/corpus.ts';

const BUNDLE = resolve(import.meta.dirname, '../../dist-inject/page-agent.js');
const corpus = listCorpus();

let server: StaticServer;
let browser: Browser;
let shared: BrowserContext | undefined;
const context = (): BrowserContext => shared!;

beforeAll(async () => {
  if (!existsSync(BUNDLE)) throw new Error('dist-inject/page-agent.js is missing: run `npm run build` first');
  server = await startStaticServer(SITES_DIR);
  browser = await launchPlain();
  shared = await browser.newContext();
});
afterAll(async () => {
  await shared?.close();
  await browser?.close();
  await server?.close();
});

describe('control-pattern corpus', () => {
  it('has at least 40 pages, each with a pattern, a solution and a goal', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(40);
    expect(corpus.filter((p) => p.solution.unsupported !== undefined).map((p) => p.file)).toEqual(
      expect.arrayContaining(['canvas-buttons.html', 'drag-handles.html']),
    );
  });

  const totals = { marks: 0, covered: 0, refs: 0, useful: 0 };
  for (const { file, solution } of corpus) {
    it(`${file}: ${solution.pattern}`, async () => {
      const page = await context().newPage();
      page.on('pageerror', () => {}); // some pages throw on purpose
      try {
        await page.addInitScript({ path: BUNDLE });
        await page.goto(`${server.origin}/corpus/${file}`);
        const cov = await markCoverage(page);
        totals.marks += cov.marks;
        totals.covered += cov.covered;
        totals.refs += cov.refs;
        totals.useful += cov.useful;
        expect(cov.missed, 'ground-truth marks without a ref').toEqual([]);
        const agent = injectedAgent(page);
        const trace = await runSolution(agent, solution.steps, () => page.waitForTimeout(60));
        expect(trace.filter((t) => !t.ok), 'failed steps').toEqual([]);
        expect(await agent.goal()).toBe(solution.goal);
      } finally {
        await page.close();
      }
    });
  }

  it('covers every mark, and at least 90% of refs stand for something a person can use', () => {
    expect(totals.marks).toBeGreaterThan(80);
    expect(totals.covered).toBe(totals.marks);
    expect(totals.useful / totals.refs).toBeGreaterThanOrEqual(0.9);
  });
});
