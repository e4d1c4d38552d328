/**
 * What was taught on one instance of a task reaches the next instance with
 * that instance's values (issue 35 items 3 and 7; the Fossil carry misses of
 * issue 33), end to end in headless Chromium: snapshot → policy → decision →
 * learning → the next instance alone, with the offline policy and JitRL+CER.
 *  - A Type list that writes "Code_Defect": taught "feature request", the
 *    next instance ("code defect") chooses "Code_Defect", not the taught
 *    "Feature_Request" (page/option-rebinding.ts, page/option-text.ts).
 *  - A wiki search whose answer is the result link's page name: taught
 *    "Sync Protocol" off "Wiki: Sync Protocol", the next instance answers
 *    "Build Instructions" off its own result (page/answer-source.ts).
 *  - A release page whose answer line comes after 120 links: the place is
 *    read from the page when the answer is given, not from the
 *    4,000-character digest (which keeps the links and drops the line).
 *    With the digest (the old lookup) the next instance has no answer.
 * Needs dist-inject (`npm run build`); the pages are written for this test
 * (test/fixtures/sites/carry/).
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBench } from '../../bench/bench-runner.ts';
import type { BenchTask, Suite, TeacherStep } from '../../bench/suite.ts';
import { readAnswer } from '../../bench/suites/apprentice-sites/tasks/page-state.ts';
import { startStaticServer, type StaticServer } from '../support/static-server.ts';

let server: StaticServer;
beforeAll(async () => {
  server = await startStaticServer(join(import.meta.dirname, '../fixtures/sites'));
});
afterAll(async () => {
  await server?.close();
});

const run = (name: string, tasks: BenchTask[]) => {
  const suite: Suite = { name, tasks: () => tasks };
  return runBench({ suite, learners: ['jitrl+cer'], attempts: 1, policy: 'offline', noise: 0, seed: 0, memory: 'carry', profile: 'full', taskFilter: '', progress: false, teach: 1 });
};

interface Filed { title: string; type: string }
const filed = (page: Page) => page.evaluate(() => (globalThis as { __filed?: Filed[] }).__filed ?? []);

describe('a list option written with underscores', () => {
  it('taught "feature request", the next instance alone files its ticket as Code_Defect', async () => {
    const task = (id: string, said: string, type: string, title: string): BenchTask => ({
      id, template: 'tracker.new', startUrl: `${server.origin}/carry/new-ticket.html`, maxSteps: 5,
      instruction: `File a new ${said} ticket titled "${title}".`,
      reward: async (page) => (JSON.stringify(await filed(page)) === JSON.stringify([{ title, type }]) ? 1 : 0),
      done: async (page) => (await filed(page)).length > 0,
      teacher: async (page): Promise<TeacherStep> => {
        if ((await filed(page)).length > 0) return { do: 'stop' };
        if ((await page.inputValue('input[name=title]')) !== title) return { do: 'fill', selector: 'input[name=title]', text: title };
        if ((await page.inputValue('select[name=type]')) !== type) return { do: 'select', selector: 'select[name=type]', option: type };
        return { do: 'click', selector: 'button[type=submit]' };
      },
    });
    const result = await run('carried-option', [
      task('tracker.new.1', 'feature request', 'Feature_Request', 'Import notes from Markdown files'),
      task('tracker.new.2', 'code defect', 'Code_Defect', 'App freezes when pasting images'),
    ]);
    expect(result.records.map((r) => [r.taskId, r.taught, r.outcome])).toEqual([['tracker.new.1', true, 'success'], ['tracker.new.2', false, 'success']]);
    expect(result.records[1]!.actions.filter((a) => a.includes('select_option'))).toEqual([expect.stringContaining('"Code_Defect")')]);
  }, 240_000);
});

describe('a search whose answer must be reported', () => {
  it('taught "Sync Protocol" off its result link, the next instance alone answers "Build Instructions"', async () => {
    const task = (id: string, word: string, pageName: string): BenchTask => ({
      id, template: 'wiki.search', startUrl: `${server.origin}/carry/wiki-search.html`, maxSteps: 5,
      instruction: `Which wiki page mentions "${word}"? Tell me its name.`,
      reward: async (page) => ((await readAnswer(page))?.trim() === pageName ? 1 : 0),
      teacher: async (page): Promise<TeacherStep> => {
        if (await page.getByRole('link', { name: `Wiki: ${pageName}` }).isVisible()) return { do: 'answer', text: pageName };
        if ((await page.inputValue('input[name=s]')) !== word) return { do: 'fill', selector: 'input[name=s]', text: word };
        return { do: 'click', selector: 'input[type=submit]' };
      },
    });
    const result = await run('carried-answer', [task('wiki.search.1', 'tombstone', 'Sync Protocol'), task('wiki.search.2', 'zlib', 'Build Instructions')]);
    expect(result.records.map((r) => [r.taskId, r.taught, r.outcome, r.answer])).toEqual([
      ['wiki.search.1', true, 'success', 'Sync Protocol'], ['wiki.search.2', false, 'success', 'Build Instructions'],
    ]);
  }, 240_000);
});

describe('an answer below what the page digest keeps', () => {
  it('taught "Juniper" off a long page, the next instance alone answers "Kestrel" from the same line', async () => {
    const task = (id: string, project: string, release: string): BenchTask => ({
      id, template: 'releases.latest', startUrl: `${server.origin}/carry/releases.html?p=${project}`, maxSteps: 3,
      instruction: `What is the newest version of project ${project} called?`,
      reward: async (page) => ((await readAnswer(page))?.trim() === release ? 1 : 0),
      teacher: async (): Promise<TeacherStep> => ({ do: 'answer', text: release }),
    });
    const result = await run('long-page-answer', [task('releases.1', 'alpha', 'Juniper'), task('releases.2', 'beta', 'Kestrel')]);
    expect(result.records.map((r) => [r.taskId, r.taught, r.outcome, r.answer])).toEqual([
      ['releases.1', true, 'success', 'Juniper'], ['releases.2', false, 'success', 'Kestrel'],
    ]);
  }, 240_000);
});
