/**
 * The ceiling check on the shipped benchmark sites: scripted solutions in
 * semantic form (test/support/shipped-solutions.ts) run through the injected
 * page agent's observe → resolve → act path and score 1 with the task's own
 * reward.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_GLOBAL, resolveTasks, type BenchTask } from '../../bench/suite.ts';
import apprenticeSites from '../../bench/suites/apprentice-sites/index.ts';
import { launchPlain } from '../support/chromium.ts';
import { injectedAgent, runSolution } from '../support/corpus.ts';
import { SHIPPED_SOLUTIONS } from '../support/shipped-solutions.ts';

const BUNDLE = resolve(import.meta.dirname, '../../dist-inject/page-agent.js');
let browser: Browser;
let tasks: BenchTask[];

beforeAll(async () => {
  if (!existsSync(BUNDLE)) throw new Error('dist-inject/page-agent.js is missing: run `npm run build` first');
  const started = await apprenticeSites.start!();
  tasks = resolveTasks(apprenticeSites, { baseUrl: started ? started.baseUrl : '' });
  browser = await launchPlain();
});
afterAll(async () => {
  await browser?.close();
  await apprenticeSites.stop!();
});

/** After an action: a navigation it started has finished and the new page has rendered. */
async function settle(page: Page): Promise<void> {
  await page.waitForTimeout(150);
  await page.waitForLoadState('load');
  await page.waitForFunction(() => document.readyState === 'complete' && globalThis.__apprentice !== undefined && (document.body?.childElementCount ?? 0) > 0);
  await page.waitForTimeout(50);
}

describe('shipped sites: ceiling through the page agent', () => {
  for (const [id, steps] of Object.entries(SHIPPED_SOLUTIONS)) {
    it(id, async () => {
      const task = tasks.find((t) => t.id === id);
      expect(task, `task ${id}`).toBeDefined();
      const context = await browser.newContext();
      try {
        await context.addInitScript({ path: BUNDLE });
        const page = await context.newPage();
        await page.goto(task!.startUrl);
        await task!.setup?.(page, { seed: 3, attempt: 1 });
        const trace = await runSolution(injectedAgent(page), steps, () => settle(page));
        expect(trace.filter((t) => !t.ok)).toEqual([]);
        await page.evaluate((name) => { (globalThis as Record<string, unknown>)[name] = null; }, ANSWER_GLOBAL);
        expect(await task!.reward(page)).toBe(1);
      } finally {
        await context.close();
      }
    });
  }
});
