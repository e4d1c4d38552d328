/**
 * Issue 34, "run each end to end": the moving test pages — a form whose
 * controls a script replaces 300 ms after load, a dropdown whose options
 * render in an overlay at the end of <body>, a search button covered by
 * another with the same purpose — taught once through the agent's decision
 * path, then done alone (snapshot → policy → decision → learning → next
 * attempt). Rewards read what the server was sent, never the page. The
 * page-layer checks of each shape are in moving-pages.e2e.test.ts.
 * Needs dist-inject (`npm run build`).
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBench } from '../../bench/bench-runner.ts';
import type { BenchTask, Suite, TeacherStep } from '../../bench/suite.ts';

const SITES = resolve(import.meta.dirname, '../fixtures/sites');
let server: Server;
/** The queries the forms sent to /moving/saved.html, newest last: what a reward reads. */
let sent: URLSearchParams[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname === '/moving/saved.html') sent.push(url.searchParams);
      const file = resolve(SITES, `.${url.pathname}`);
      if (!file.startsWith(SITES)) return void res.writeHead(404).end();
      const body = await readFile(file).catch(() => null);
      if (body === null) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);
    })();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
});
afterAll(async () => {
  await new Promise<void>((ok) => server.close(() => ok()));
});

const onSaved = (page: Page) => new URL(page.url()).pathname === '/moving/saved.html';
/** One saved form, with exactly these fields set as given. */
const savedOnce = (want: Record<string, string>) => async () => {
  if (sent.length !== 1) return 0;
  return Object.entries(want).every(([k, v]) => sent[0]!.get(k) === v) ? 1 : 0;
};

function tasks(origin: string): BenchTask[] {
  const base = { setup: async (page: Page) => { sent = []; await page.reload(); }, done: async () => sent.length > 0, maxSteps: 6 };
  return [
    {
      ...base, id: 'moving.hydrating', startUrl: `${origin}/moving/hydrating-form.html`, instruction: 'Change my display name to Ada Byron.',
      reward: savedOnce({ display: 'Ada Byron' }),
      teacher: async (page): Promise<TeacherStep> => {
        if (onSaved(page)) return { do: 'stop' };
        if ((await page.inputValue('input[name=display]')) !== 'Ada Byron') return { do: 'fill', selector: 'input[name=display]', text: 'Ada Byron' };
        return { do: 'click', selector: 'button:has-text("Save")' };
      },
    },
    {
      ...base, id: 'moving.overlay', startUrl: `${origin}/moving/overlay-dropdown.html?protect`, instruction: 'Let only administrators edit this page.',
      reward: savedOnce({ edit: 'sysop' }),
      teacher: async (page): Promise<TeacherStep> => {
        if (onSaved(page)) return { do: 'stop' };
        if ((await page.textContent('#edit'))?.trim() !== 'Allow only administrators') {
          if (await page.isVisible('[role=listbox]')) return { do: 'click', selector: '[role=option]:has-text("Allow only administrators")' };
          return { do: 'click', selector: '#edit' };
        }
        return { do: 'click', selector: 'button:has-text("Protect")' };
      },
    },
    {
      ...base, id: 'moving.covered', startUrl: `${origin}/moving/covered-search.html`, instruction: 'Look up bridges in the wiki.',
      reward: savedOnce({ search: 'bridges', go: '1' }),
      teacher: async (page): Promise<TeacherStep> => {
        if (onSaved(page)) return { do: 'stop' };
        if ((await page.inputValue('input[name=search]')) !== 'bridges') return { do: 'fill', selector: 'input[name=search]', text: 'bridges' };
        return { do: 'click', selector: 'button[aria-label=Go]' };
      },
    },
  ];
}

describe('the moving pages, taught once, then alone', () => {
  it('each runs alone at attempt 2 with exactly the taught effect', async () => {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const suite: Suite = { name: 'moving-pages', tasks: tasks(origin) };
    const result = await runBench({
      suite, learners: ['jitrl+cer'], attempts: 2, policy: 'offline', noise: 0, seed: 0, memory: 'fresh', profile: 'full', taskFilter: '', progress: false, teach: 1,
    });
    const at = (attempt: number) => result.records.filter((r) => r.attempt === attempt).map((r) => [r.taskId, r.taught, r.outcome]).sort();
    expect(at(1)).toEqual([['moving.covered', true, 'success'], ['moving.hydrating', true, 'success'], ['moving.overlay', true, 'success']]);
    expect(at(2)).toEqual([['moving.covered', false, 'success'], ['moving.hydrating', false, 'success'], ['moving.overlay', false, 'success']]);
    for (const r of result.records) expect(r.teaching?.unteachable ?? [], r.taskId).toEqual([]);
  }, 240_000);
});
