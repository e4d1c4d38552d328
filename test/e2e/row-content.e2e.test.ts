/**
 * Rows told apart only by their content (issue 35): a moderation table whose
 * rows' first cell is a check column labelled "Select comment" on every row,
 * the shape of WordPress's comments screen. Such a row is named by the first
 * cell whose text differs from the row beside it (the author), not by the
 * label every row shares, and not by its position: a comment taught on one
 * instance is found again when newer comments push it down. End to end in
 * headless Chromium: snapshot → policy → decision → learning → the next
 * instance alone. Needs dist-inject (`npm run build`); the page is written
 * for this test (test/fixtures/sites/rows/).
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBench } from '../../bench/bench-runner.ts';
import type { BenchTask, Suite, TeacherStep } from '../../bench/suite.ts';
import { renderNodeLine } from '../../src/core/page/render-observation.ts';
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

const trashed = (page: Page) => page.evaluate(() => (globalThis as { __trashed?: string[] }).__trashed ?? []);

describe('a row whose only label is the same on every row', () => {
  it('is named by its first cell that differs from the next row\'s: the author, not "Select comment" and not a position', async () => {
    const browser = await launchPlain();
    try {
      const page = await browser.newPage();
      await page.addInitScript({ content: await pageAgentCode() });
      await page.goto(`${server.origin}/rows/comments.html`);
      const lines = (await observeAll(page)).nodes.filter((n) => n.ref !== null).map((n) => renderNodeLine(n).trim().replace(/^\[\d+\] /, ''));
      expect(lines.filter((l) => l.startsWith('button "Trash"') || l.startsWith('checkbox "Select comment"'))).toEqual([
        'checkbox "Select comment" (name not visible on the page) · row "Jane Doe"', 'button "Trash" · row "Jane Doe"',
        'checkbox "Select comment" (name not visible on the page) · row "Bob Stone"', 'button "Trash" · row "Bob Stone"',
        'checkbox "Select comment" (name not visible on the page) · row "Ana Ruiz"', 'button "Trash" · row "Ana Ruiz"',
        'checkbox "Select comment" (name not visible on the page) · row "Lee Park"', 'button "Trash" · row "Lee Park"',
      ]);
    } finally {
      await browser.close();
    }
  });

  it('taught on one instance, the next instance alone trashes the same comment where it now sits', async () => {
    const task = (id: string, query: string): BenchTask => ({
      id, template: 'comments.trash', startUrl: `${server.origin}/rows/comments.html${query}`, maxSteps: 4,
      instruction: 'Move the comment by Ana Ruiz to the Trash.',
      reward: async (page) => (JSON.stringify(await trashed(page)) === JSON.stringify(['Ana Ruiz']) ? 1 : 0),
      done: async (page) => (await trashed(page)).length > 0,
      teacher: async (page): Promise<TeacherStep> => ((await trashed(page)).length > 0
        ? { do: 'stop' }
        : { do: 'click', selector: 'tr:has(strong:text-is("Ana Ruiz")) button[data-act=trash]' }),
    });
    const suite: Suite = { name: 'row-content', tasks: () => [task('comments.trash.1', ''), task('comments.trash.2', '#new')] };
    const result = await runBench({
      suite, learners: ['jitrl+cer'], attempts: 1, policy: 'offline', noise: 0, seed: 0, memory: 'carry', profile: 'full', taskFilter: '', progress: false, teach: 1,
    });
    expect(result.records.map((r) => [r.taskId, r.taught, r.outcome])).toEqual([['comments.trash.1', true, 'success'], ['comments.trash.2', false, 'success']]);
    expect(result.records[1]!.actions).toEqual(['/rows/comments.html#new click(<button "Trash" in row "Ana Ruiz">)']);
  }, 240_000);
});
