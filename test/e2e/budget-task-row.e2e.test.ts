/**
 * A list longer than the snapshot's 12,000-character budget, and a task that
 * names a row far down it (the WordPress comment-approve miss of session 10:
 * the taught row's "Approve" was cut, the click refused `element_gone`). The
 * budget drops the lines the task names last, so that row's controls are in
 * the snapshot wherever the row is, and the snapshot says how many rows it
 * cut into. End to end in headless Chromium: snapshot → policy → decision →
 * learning → the next instance alone. Needs dist-inject (`npm run build`);
 * the page is written for this test (test/fixtures/sites/rows/long-comments.html).
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBench } from '../../bench/bench-runner.ts';
import type { BenchTask, Suite, TeacherStep } from '../../bench/suite.ts';
import { renderNodeLine, renderObservation } from '../../src/core/page/render-observation.ts';
import { launchPlain } from '../support/chromium.ts';
import { observeAll, pageAgentCode } from '../support/page-agent-harness.ts';
import { startStaticServer, type StaticServer } from '../support/static-server.ts';

let server: StaticServer;
beforeAll(async () => {
  server = await startStaticServer(join(import.meta.dirname, '../fixtures/sites'));
});
afterAll(async () => {
  await server?.close();
});

const approved = (page: Page) => page.evaluate(() => (globalThis as { __approved?: string[] }).__approved ?? []);

describe('a task naming a row far down a list longer than the snapshot budget', () => {
  it('keeps that row\'s controls in the 12,000-character snapshot and says how many rows it cut into', async () => {
    const browser = await launchPlain();
    try {
      const page = await browser.newPage();
      await page.addInitScript({ content: await pageAgentCode() });
      await page.goto(`${server.origin}/rows/long-comments.html`);
      const full = await observeAll(page);
      expect(renderObservation(full).length).toBeGreaterThan(12_000);
      const cut = await page.evaluate((task) => globalThis.__apprentice!.observe({ maxChars: 12_000, lastActedRef: null, task }), 'Approve the comment from Pia Jovic.');
      const lines = cut.nodes.filter((n) => n.context?.some((c) => c.name === 'Pia Jovic')).map((n) => renderNodeLine(n).trim().replace(/^\[\d+\] /, ''));
      // The check box is a form field, kept anyway; the row's buttons are kept because the task names the row.
      expect(lines).toEqual(['checkbox "Select comment" · row "Pia Jovic"', 'button "Approve" · row "Pia Jovic"', 'button "Reply" · row "Pia Jovic"', 'button "Spam" · row "Pia Jovic"']);
      expect(cut.omissions).toHaveLength(1);
      expect(cut.omissions[0]).toMatch(/^truncated to 12000 chars: \d+ text and \d+ other lines dropped, lines of \d+ rows or items among them$/);
      expect(renderObservation(cut).length).toBeLessThanOrEqual(12_000);
      // Without the task (as before), the budget anchored at the top cuts the row's buttons.
      const blind = await page.evaluate(() => globalThis.__apprentice!.observe({ maxChars: 12_000, lastActedRef: null }));
      expect(blind.nodes.filter((n) => n.role === 'button' && n.context?.some((c) => c.name === 'Pia Jovic'))).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('taught on one comment far down, the next instance alone approves its own comment far down', async () => {
    const task = (id: string, author: string): BenchTask => ({
      id, template: 'comments.approve', startUrl: `${server.origin}/rows/long-comments.html`, maxSteps: 4,
      instruction: `Approve the comment from ${author}.`,
      reward: async (page) => (JSON.stringify(await approved(page)) === JSON.stringify([author]) ? 1 : 0),
      done: async (page) => (await approved(page)).length > 0,
      teacher: async (page): Promise<TeacherStep> => ((await approved(page)).length > 0
        ? { do: 'stop' }
        : { do: 'click', selector: `tr:has(strong:text-is("${author}")) button[data-act=approve]` }),
    });
    const suite: Suite = { name: 'budget-task-row', tasks: () => [task('comments.approve.1', 'Otto Jovic'), task('comments.approve.2', 'Pia Jovic')] };
    const result = await runBench({
      suite, learners: ['jitrl+cer'], attempts: 1, policy: 'offline', noise: 0, seed: 0, memory: 'carry', profile: 'full', taskFilter: '', progress: false, teach: 1,
    });
    expect(result.records.map((r) => [r.taskId, r.taught, r.outcome])).toEqual([['comments.approve.1', true, 'success'], ['comments.approve.2', false, 'success']]);
    expect(result.records[0]!.actions).toEqual(['/rows/long-comments.html click(<button "Approve" in row "Otto Jovic">)']);
    expect(result.records[1]!.actions).toEqual(['/rows/long-comments.html click(<button "Approve" in row "Pia Jovic">)']);
  }, 240_000);
});
