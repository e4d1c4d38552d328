/**
 * Team memory with two profiles of the BUILT extension and a real
 * CouchDB-compatible server (npm pouchdb-server on a random loopback port,
 * started here, stopped after). A and B share one site. A is taught a task
 * (a correction: A picks the control the policy did not put first); A syncs;
 * B syncs and its first attempt at another instance proposes the taught step
 * first (no correction), and still asks: a step learned only from a teammate
 * never runs unasked. B forgets A and is back to needing the correction.
 *
 * Taught through the existing correction path (pick another candidate), not
 * Show me: the teacher flow of issue 22 landed in parallel.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Episode } from '../../src/core/episode/episode.ts';
import { launchWithExtension, type ExtensionBrowser } from '../support/chromium.ts';
import { startStaticServer, type StaticServer } from '../support/static-server.ts';
import { messagesFrom } from '../support/extension-messaging.ts';
import { disableExploration } from '../support/extension-settings.ts';
import { startTeamServer, type TeamServer } from '../support/pouchdb-server.ts';

interface Member {
  browser: ExtensionBrowser;
  ui: Page;
  site: Page;
  request: <T>(m: Record<string, unknown>) => Promise<T>;
}

let server: StaticServer;
let couch: TeamServer;
let a: Member;
let b: Member;
const BOOK = 'click(<button "Book a desk">)';

async function member(): Promise<Member> {
  const browser = await launchWithExtension();
  const site = await browser.context.newPage();
  const ui = await browser.context.newPage();
  await ui.goto(`chrome-extension://${browser.extensionId}/src/ui/sidepanel/index.html`);
  await disableExploration(ui);
  return { browser, ui, site, request: messagesFrom(() => ui).request };
}

async function tabOf(m: Member, url: string): Promise<number> {
  return m.ui.evaluate(async (u) => (await chrome.tabs.query({ url: u }))[0]!.id!, url);
}

async function waitFor(m: Member, episodeId: string, statuses: Episode['status'][]): Promise<Episode> {
  for (let i = 0; i < 300; i++) {
    const ep = await m.request<Episode>({ type: 'episode.get', episodeId });
    if (statuses.includes(ep.status)) return ep;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`episode never reached ${statuses.join('|')}`);
}

/** Starts the task on room N and returns the first step's proposal. */
async function firstProposal(m: Member, room: number): Promise<Episode> {
  const url = `${server.origin}/team/desk.html?room=${room}`;
  await m.site.goto(url);
  const started = await m.request<Episode>({ type: 'episode.start', tabId: await tabOf(m, url), task: `Reserve a seat in study room ${room}` });
  return waitFor(m, started.id, ['awaiting_approval']);
}

async function joinTeam(m: Member, name: string) {
  await m.request({
    type: 'team.saveSettings',
    settings: { serverUrl: couch.url, database: 'team', username: couch.admin.username, memberId: '', memberName: name, sharedSites: [server.origin], live: false, muted: [], reviewed: [] },
    password: couch.admin.password,
  });
}

beforeAll(async () => {
  server = await startStaticServer(join(import.meta.dirname, '../fixtures/sites'));
  couch = await startTeamServer();
  await couch.createDatabase('team');
  a = await member();
  b = await member();
});

afterAll(async () => {
  await a?.browser.close();
  await b?.browser.close();
  await couch?.stop();
  await server?.close();
});

describe('team memory between two profiles of the built extension', () => {
  it('Test connection names the problem, then passes', async () => {
    await a.request({
      type: 'team.saveSettings',
      settings: { serverUrl: couch.url, database: 'team', username: couch.admin.username, memberId: '', memberName: 'Ana', sharedSites: [server.origin], live: false, muted: [], reviewed: [] },
      password: 'wrong',
    });
    expect(await a.request({ type: 'team.test' })).toMatchObject({ ok: false, problem: 'credentials' });
    await joinTeam(a, 'Ana');
    expect(await a.request({ type: 'team.test' })).toMatchObject({ ok: true });
    // Issue 31: what is typed is tested, not what is saved. An unreachable server typed over the good saved one fails;
    // the stored password is not sent to it; the saved server typed again passes with the stored password.
    const typed = (serverUrl: string) => ({ serverUrl, database: 'team', username: couch.admin.username });
    expect(await a.request({ type: 'team.test', connection: typed('http://127.0.0.1:9'), password: 'x' })).toMatchObject({ ok: false, problem: 'unreachable' });
    expect(await a.request({ type: 'team.test', connection: typed('http://127.0.0.1:9'), password: null })).toMatchObject({ ok: false, problem: 'credentials', message: /stored password is only sent/ });
    expect(await a.request({ type: 'team.test', connection: { ...typed(couch.url), database: 'no-such-db' }, password: null })).toMatchObject({ ok: false, problem: 'missing-database' });
    expect(await a.request({ type: 'team.test', connection: typed(couch.url), password: null })).toMatchObject({ ok: true });
  });

  it('A is taught the task: the policy alone puts another control first, A corrects it', async () => {
    let ep = await firstProposal(a, 1);
    const step = ep.steps[0]!;
    expect(step.candidates[0]!.semantic).not.toBe(BOOK);
    const index = step.candidates.findIndex((c) => c.semantic === BOOK);
    expect(index).toBeGreaterThan(0);
    ep = await a.request<Episode>({ type: 'episode.decide', episodeId: ep.id, decision: { kind: 'pick', index, step: 0, candidate: BOOK } });
    await expect.poll(() => a.site.textContent('#result')).toContain('room 1 is yours');
    ep = await waitFor(a, ep.id, ['awaiting_approval']);
    ep = await a.request<Episode>({ type: 'episode.decide', episodeId: ep.id, decision: { kind: 'edit', action: 'send_msg_to_user("Reserved")', step: ep.steps.length - 1 } });
    ep = await waitFor(a, ep.id, ['awaiting_verdict']);
    ep = await a.request<Episode>({ type: 'episode.verdict', episodeId: ep.id, verdict: 'success', runEvaluator: false });
    expect(ep.status).toBe('success');
    const status = await a.request<{ ok: boolean; published: number; message: string | null }>({ type: 'team.sync' });
    expect(status.message).toBeNull();
    expect(status.published).toBeGreaterThanOrEqual(2);
  });

  it("B's first attempt at another instance proposes the taught step first, and still asks", async () => {
    await joinTeam(b, 'Ben');
    // Even asking only for what B has not approved: B never approved anything, and A's approvals are not B's.
    await b.request({ type: 'askMode.set', origin: server.origin, mode: 'unapproved-only' });
    const status = await b.request<{ ok: boolean; imported: number; refused: unknown[]; held: unknown[] }>({ type: 'team.sync' });
    expect(status).toMatchObject({ ok: true, refused: [], held: [] });
    expect(status.imported).toBeGreaterThanOrEqual(2);
    const teammates = await b.request<{ name: string; items: number }[]>({ type: 'team.teammates' });
    expect(teammates).toEqual([expect.objectContaining({ name: 'Ana', items: status.imported })]);

    const ep = await firstProposal(b, 2);
    expect(ep.status).toBe('awaiting_approval');
    expect(ep.steps[0]!.candidates[0]!.semantic).toBe(BOOK);
    expect(ep.steps[0]!.chosen).toBeFalsy();
    await b.request({ type: 'episode.stop', episodeId: ep.id });
  });

  it('B forgets A: what A taught is gone from B and B needs the correction again', async () => {
    const ana = (await b.request<{ id: string; name: string }[]>({ type: 'team.teammates' })).find((t) => t.name === 'Ana')!;
    const { removed } = await b.request<{ removed: number }>({ type: 'team.forgetTeammate', id: ana.id });
    expect(removed).toBeGreaterThanOrEqual(2);
    expect(await b.request<unknown[]>({ type: 'learner.action', learnerId: 'jitrl', action: 'list', payload: { origin: server.origin, query: '', limit: 50, offset: 0 } })).toEqual([]);
    // A later sync does not bring A's memory back.
    const status = await b.request<{ imported: number }>({ type: 'team.sync' });
    expect(status.imported).toBe(0);
    const ep = await firstProposal(b, 3);
    expect(ep.steps[0]!.candidates[0]!.semantic).not.toBe(BOOK);
    await b.request({ type: 'episode.stop', episodeId: ep.id });
  });
});
