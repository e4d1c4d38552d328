/**
 * A row whose check column is labelled with the row's own login ("Select
 * lee"), the shape of WordPress's users screen (issue 35, issue 33's
 * `user-role`). The label names the box, not the row: the row is named by
 * what it shows (the login "lee"), so the login link carries the row's text
 * and a step taught on Lee Chen's row is moved to Aiko Tanaka's on the next
 * instance. The two bulk "Change role to…" drop-downs above and below the
 * list share role, name and form: only their place tells them apart (#1, #2),
 * and each resolves to one element. End to end in headless Chromium:
 * snapshot → policy → decision → learning → the next instance alone. Needs
 * dist-inject (`npm run build`); the pages are written for this test
 * (test/fixtures/sites/rows/users.html, user.html).
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBench } from '../../bench/bench-runner.ts';
import type { BenchTask, Suite, TeacherStep } from '../../bench/suite.ts';
import { renderNodeLine } from '../../src/core/page/render-observation.ts';
import { matchingNodes } from '../../src/core/page/semantic-action.ts';
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

const updated = (page: Page) => page.evaluate(() => (globalThis as { __updated?: [string, string] | null }).__updated ?? null);

describe('a row whose check column is labelled with the row\'s own login', () => {
  it('is named by its login, not by "Select lee"; the two bulk drop-downs are #1 and #2, each one element', async () => {
    const browser = await launchPlain();
    try {
      const page = await browser.newPage();
      await page.addInitScript({ content: await pageAgentCode() });
      await page.goto(`${server.origin}/rows/users.html`);
      const obs = await observeAll(page);
      const lines = obs.nodes.filter((n) => n.ref !== null).map((n) => renderNodeLine(n).trim().replace(/^\[\d+\] /, ''));
      expect(lines.filter((l) => /^link "(lee|Edit)"/.test(l) || /^(combobox|button) "Change/.test(l))).toEqual([
        'combobox "Change role to…" (name not visible on the page) value="Change role to…" options=["Change role to…","Author","Editor","Contributor"] · #1',
        'button "Change" · #1',
        'link "Edit" · row "aiko"',
        'link "Edit" · row "jonas"',
        'link "lee"',
        'link "Edit" · row "lee"',
        'combobox "Change role to…" (name not visible on the page) value="Change role to…" options=["Change role to…","Author","Editor","Contributor"] · #2',
        'button "Change" · #2',
      ]);
      // The login link names its row, so it carries the row's text: what tells which user it opens.
      expect(obs.nodes.find((n) => n.role === 'link' && n.name === 'lee')!.rowText).toBe('Select lee lee Edit Lee Chen lee@example.test Editor');
      for (const nth of [1, 2]) expect(matchingNodes({ kind: 'semantic', role: 'combobox', name: 'Change role to…', nth }, obs)).toHaveLength(1);
      expect(matchingNodes({ kind: 'semantic', role: 'combobox', name: 'Change role to…' }, obs)).toHaveLength(2);
    } finally {
      await browser.close();
    }
  });

  it('taught on Lee Chen, the next instance alone opens Aiko Tanaka\'s profile and changes her role', async () => {
    const task = (id: string, login: string, name: string, role: string): BenchTask => ({
      id, template: 'users.role', startUrl: `${server.origin}/rows/users.html`, maxSteps: 6,
      instruction: `Change ${name}'s role to ${role}.`,
      reward: async (page) => (JSON.stringify(await updated(page)) === JSON.stringify([login, role]) ? 1 : 0),
      done: async (page) => (await updated(page)) !== null,
      teacher: async (page): Promise<TeacherStep> => {
        if (!page.url().includes('user.html')) return { do: 'click', selector: `strong > a[href="user.html?login=${login}"]` };
        if ((await page.locator('#role').inputValue()) !== role) return { do: 'select', selector: '#role', option: role };
        return (await updated(page)) !== null ? { do: 'stop' } : { do: 'click', selector: '#update' };
      },
    });
    const suite: Suite = { name: 'row-selection-cell', tasks: () => [task('users.role.lee', 'lee', 'Lee Chen', 'Author'), task('users.role.aiko', 'aiko', 'Aiko Tanaka', 'Editor')] };
    const result = await runBench({
      suite, learners: ['jitrl+cer'], attempts: 1, policy: 'offline', noise: 0, seed: 0, memory: 'carry', profile: 'full', taskFilter: '', progress: false, teach: 1,
    });
    expect(result.records.map((r) => [r.taskId, r.taught, r.outcome])).toEqual([['users.role.lee', true, 'success'], ['users.role.aiko', false, 'success']]);
    expect(result.records[1]!.actions).toEqual([
      '/rows/users.html click(<link "aiko">)',
      '/rows/user.html?login=aiko select_option(<combobox "Role">, "Editor")',
      '/rows/user.html?login=aiko click(<button "Update User">)',
    ]);
  }, 240_000);
});
