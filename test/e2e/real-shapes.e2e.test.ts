/**
 * Exactly what it was shown, end to end in headless Chromium, on the
 * real-shapes site (bench/suites/real-shapes): a Remove on every row with the
 * row's id in a hidden input, identical "Add to cart" on every card, three
 * unlabelled fields, tabs wrapping links. The page layer describes each
 * control with what tells it apart; the teacher teaches once through the
 * agent's decision path; the next attempt runs alone and acts on the very
 * row, card and field it was shown (rewards read the server's state, which
 * also counts every other effect). Needs dist-inject (`npm run build`).
 */
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { runBench } from '../../bench/bench-runner.ts';
import { resolveTasks, type Suite } from '../../bench/suite.ts';
import realShapes from '../../bench/suites/real-shapes/index.ts';
import { startShapesServer, type ShapesServer } from '../../bench/suites/real-shapes/shapes-server.ts';
import type { PageObservation } from '../../src/core/page/observation.ts';
import { renderNodeLine } from '../../src/core/page/render-observation.ts';
import { launchPlain } from '../support/chromium.ts';

const BUNDLE = resolve(import.meta.dirname, '../../dist-inject/page-agent.js');

const subset = (ids: readonly string[]): Suite => ({
  name: 'real-shapes-mini',
  start: () => realShapes.start!(),
  stop: () => realShapes.stop!(),
  tasks: (ctx) => resolveTasks(realShapes, ctx).filter((t) => ids.includes(t.id)),
});

describe('the page layer tells look-alikes apart', () => {
  let server: ShapesServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startShapesServer();
    browser = await launchPlain();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const lines = async (path: string): Promise<string[]> => {
    const page = await browser.newPage();
    await page.addInitScript({ path: BUNDLE });
    await page.goto(`${server.origin}${path}`);
    const obs = await page.evaluate(() => globalThis.__apprentice!.observe({})) as PageObservation;
    await page.close();
    // The site's navigation links are the same on every page: left out.
    return obs.nodes.filter((n) => n.ref !== null && n.role !== 'link').map((n) => renderNodeLine(n).trim());
  };

  it('names each row\'s Remove by its row, each card\'s button by its card, and unlabelled fields by the text before them', async () => {
    expect((await lines('/members')).filter((l) => l.includes('Remove'))).toEqual([
      '[7] button "Remove" · row "Ada Lovelace"', '[8] button "Remove" · row "Alan Turing"',
      '[9] button "Remove" · row "Grace Hopper"', '[10] button "Remove" · row "Linus Pauling"',
    ]);
    expect((await lines('/shop')).filter((l) => l.includes('Add to cart')).map((l) => l.replace(/^\[\d+\] /, ''))).toEqual(
      ['Kettle', 'Teapot', 'Mug', 'Toaster', 'Grinder', 'Scale'].map((t) => `button "Add to cart" · item "${t}"`),
    );
    expect((await lines('/invite')).map((l) => l.replace(/^\[\d+\] /, ''))).toEqual([
      'textbox "Full name" (name guessed)', 'textbox "Email address" (name guessed)',
      'combobox "Team" (name guessed) value="Design" options=["Design","Research","Support"]', 'button "Send invite"',
    ]);
  });

  it('keeps the whole row on a link that names its row (a ticket\'s id), for carrying a step to the row a task names', async () => {
    const page = await browser.newPage();
    await page.addInitScript({ path: BUNDLE });
    await page.goto(`${server.origin}/tickets`);
    const obs = await page.evaluate(() => globalThis.__apprentice!.observe({})) as PageObservation;
    await page.close();
    const ids = obs.nodes.filter((n) => n.role === 'link' && /^[0-9a-f]{10}$/.test(n.name));
    expect(ids.map((n) => [n.name, n.context, n.rowText])).toEqual([
      ['0ba033313b', undefined, '0ba033313b Code_Defect Open Crash when saving an empty note'],
      ['5e21c0d7aa', undefined, '5e21c0d7aa Cosmetic Open Toolbar icons are blurry'],
      ['91f4b2e6c3', undefined, '91f4b2e6c3 Code_Defect Open Search ignores accented letters'],
      ['c47d10e9f2', undefined, 'c47d10e9f2 Feature_Request Open Export notes to PDF'],
    ]);
    // Only there: a control with a row context of its own has none.
    expect(obs.nodes.filter((n) => n.rowText !== undefined)).toHaveLength(4);
  });

  it('gives a tab that wraps a link one line, with the link\'s ref and address', async () => {
    const tabs = (await lines('/settings')).filter((l) => / tab /.test(` ${l.replace(/^\[\d+\] /, '')}`));
    expect(tabs.map((l) => l.replace(/^\[\d+\] /, ''))).toEqual(['tab "Profile" selected', 'tab "Notifications"', 'tab "Privacy"']);
  });
});

describe('taught once, then alone, on the row, card and field it was shown', () => {
  it('each taught task runs alone at attempt 2 with exactly its own effect', async () => {
    const ids = ['members.remove.9', 'shop.add.grinder', 'invite.2', 'settings.digest-on'];
    const result = await runBench({
      suite: subset(ids), learners: ['jitrl+cer'], attempts: 2, policy: 'offline', noise: 0, seed: 0, memory: 'fresh', profile: 'full', taskFilter: '', progress: false, teach: 1,
    });
    const at = (attempt: number) => result.records.filter((r) => r.attempt === attempt).map((r) => [r.taskId, r.outcome]).sort();
    const all = [...ids].sort().map((id) => [id, 'success']);
    expect(at(1)).toEqual(all);
    expect(at(2)).toEqual(all);
    const alone = result.records.find((r) => r.attempt === 2 && r.taskId === 'members.remove.9')!;
    expect(alone.actions).toEqual([
      '/members click(<button "Remove" in row "Grace Hopper">)',
      '/members/confirm?id=9 click(<button "Remove" in dialog "Remove member?">)',
    ]);
  }, 240_000);

  it('after two taught instances, a new instance runs alone on its own row and card, not the taught ones', async () => {
    const ids = ['members.remove.7', 'members.remove.9', 'members.remove.12', 'shop.add.teapot', 'shop.add.grinder', 'shop.add.mug'];
    const result = await runBench({
      suite: subset(ids), learners: ['jitrl+cer'], attempts: 1, policy: 'offline', noise: 0, seed: 0, memory: 'carry', profile: 'full', taskFilter: '', progress: false, teach: 2,
    });
    const third = result.records.filter((r) => r.instance === 3);
    expect(third.map((r) => [r.taskId, r.taught, r.outcome])).toEqual([['members.remove.12', false, 'success'], ['shop.add.mug', false, 'success']]);
    expect(third.find((r) => r.taskId === 'shop.add.mug')!.actions).toEqual(['/shop click(<button "Add to cart" in item "Mug">)']);
  }, 240_000);

  it('a ticket opened by its id link: the new instance opens its own ticket, never a taught one', async () => {
    const ids = ['tickets.status.0ba033313b', 'tickets.status.5e21c0d7aa', 'tickets.status.91f4b2e6c3'];
    const result = await runBench({
      suite: subset(ids), learners: ['jitrl+cer'], attempts: 1, policy: 'offline', noise: 0, seed: 0, memory: 'carry', profile: 'full', taskFilter: '', progress: false, teach: 2,
    });
    const third = result.records.find((r) => r.instance === 3)!;
    expect([third.taskId, third.taught, third.outcome]).toEqual(['tickets.status.91f4b2e6c3', false, 'success']);
    expect(third.actions[0]).toBe('/tickets click(<link "91f4b2e6c3">)');
  }, 240_000);

  it('a tag box emptied by its Add, on one URL: the new instance types and adds its tag before Update', async () => {
    const ids = ['notes.tag.21', 'notes.tag.22', 'notes.tag.23'];
    const result = await runBench({
      suite: subset(ids), learners: ['jitrl+cer'], attempts: 1, policy: 'offline', noise: 0, seed: 0, memory: 'carry', profile: 'full', taskFilter: '', progress: false, teach: 1,
    });
    expect(result.records.map((r) => [r.taskId, r.taught, r.outcome])).toEqual([
      ['notes.tag.21', true, 'success'], ['notes.tag.22', false, 'success'], ['notes.tag.23', false, 'success'],
    ]);
    // The step after Add was filed under the arrival's state when the emptied box left nothing: Update came first.
    expect(result.records.find((r) => r.instance === 3)!.actions).toEqual([
      '/notes click(<link "Edit" in row "Garden ideas">)',
      '/notes/23/edit fill(<textbox "Add a tag">, "tomatoes")',
      '/notes/23/edit click(<button "Add">)',
      '/notes/23/edit click(<button "Update">)',
    ]);
  }, 240_000);
});
