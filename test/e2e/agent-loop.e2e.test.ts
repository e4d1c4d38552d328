/**
 * The learning loop through the built extension in real Chromium: the
 * service worker runs an episode on a fixture page over the typed protocol,
 * survives being killed mid-episode (checkpoint in IndexedDB), learns from
 * the verdict, and adjusts the logits of the next attempt.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Episode } from '../../src/core/episode/episode.ts';
import { launchWithExtension, type ExtensionBrowser } from '../support/chromium.ts';
import { startStaticServer, type StaticServer } from '../support/static-server.ts';
import { messagesFrom } from '../support/extension-messaging.ts';
import { disableExploration } from '../support/extension-settings.ts';
import { JitrlCandidateEvidenceSchema, JitrlStepEvidenceSchema } from '../../src/learners/jitrl/core/evidence.ts';

let browser: ExtensionBrowser;
let server: StaticServer;
let ui: Page;
let site: Page;
let tabId: number;

const { send, request } = messagesFrom(() => ui);

async function waitFor(episodeId: string, statuses: Episode['status'][]): Promise<Episode> {
  for (let i = 0; i < 200; i++) {
    const ep = await request<Episode>({ type: 'episode.get', episodeId });
    if (statuses.includes(ep.status)) return ep;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`episode never reached ${statuses.join('|')}`);
}

beforeAll(async () => {
  server = await startStaticServer(join(import.meta.dirname, '../fixtures/sites'));
  browser = await launchWithExtension();
  site = await browser.context.newPage();
  await site.goto(`${server.origin}/form.html`);
  ui = await browser.context.newPage();
  await ui.goto(`chrome-extension://${browser.extensionId}/src/ui/sidepanel/index.html`);
  await disableExploration(ui);
  tabId = await browser.serviceWorker.evaluate(async (url) => {
    const [tab] = await chrome.tabs.query({ url });
    return tab!.id!;
  }, `${server.origin}/form.html`);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the learning loop in the service worker', () => {
  const task = 'Set the full name to "Ada Lovelace"';

  it('rejects malformed messages with a typed error', async () => {
    const reply = await send({ type: 'episode.start', tabId: 'x', task: '' });
    expect(reply.ok).toBe(false);
    if (!reply.ok) expect(reply.error.name).toBe('ProtocolError');
    const extra = await send({ type: 'learner.action', learnerId: 'jitrl', action: 'list', payload: { origin: server.origin, query: '', limit: 5, offset: 0, extra: 1 } });
    expect(extra.ok).toBe(false);
    if (!extra.ok) expect(extra.error.name).toBe('LearnerActionError');
  });

  it('runs an episode, survives a worker restart, and learns from the verdict', async () => {
    const started = await request<Episode>({ type: 'episode.start', tabId, task });
    expect(started.origin).toBe(server.origin);
    let ep = await waitFor(started.id, ['awaiting_approval']);
    const step = ep.steps[0]!;
    expect(step.logitSource).toBe('offline');
    expect(step.candidates.length).toBeGreaterThan(0);
    const fillIndex = step.candidates.findIndex((c) => c.semantic === 'fill(<textbox "Full name">, "Ada Lovelace")');
    expect(fillIndex).toBeGreaterThanOrEqual(0);
    ep = await request<Episode>({ type: 'episode.decide', episodeId: ep.id, decision: { kind: 'pick', index: fillIndex, step: 0, candidate: step.candidates[fillIndex]!.semantic } });
    await expect.poll(() => site.inputValue('#name')).toBe('Ada Lovelace');

    // Kill the worker: fresh module state, IndexedDB survives.
    const cdp = await browser.context.newCDPSession(site);
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    ep = await waitFor(ep.id, ['awaiting_approval']);
    expect(ep.steps).toHaveLength(2);
    expect(ep.steps[0]!.chosen?.decision).toBe('picked');

    ep = await request<Episode>({ type: 'episode.decide', episodeId: ep.id, decision: { kind: 'edit', action: 'send_msg_to_user("Done")', step: ep.steps.length - 1 } });
    ep = await waitFor(ep.id, ['awaiting_verdict']);
    expect(ep.answer).toBe('Done');
    ep = await request<Episode>({ type: 'episode.verdict', episodeId: ep.id, verdict: 'success', runEvaluator: false });
    expect(ep.status).toBe('success');

    const rows = await request<{ action: string; reward: number }[]>({ type: 'learner.action', learnerId: 'jitrl', action: 'list', payload: { origin: server.origin, query: '', limit: 50, offset: 0 } });
    // The two executed steps, and the proposal the edit overruled: a correction rejects what it replaced (issue 22).
    expect(rows.map((r) => r.action).sort()).toEqual(['click(<button "Sign up">)', 'fill(<textbox "Full name">, "Ada Lovelace")', 'send_msg_to_user("Done")']);
    expect(rows.find((r) => r.action === 'click(<button "Sign up">)')!.reward).toBeLessThan(0);
    const curve = await request<{ attempt: number; success: number }[]>({ type: 'history.curve', origin: server.origin, task });
    expect(curve).toEqual([expect.objectContaining({ attempt: 1, success: 1 })]);
  });

  it('adjusts the logits on the next attempt from what it learned', async () => {
    await site.reload();
    const started = await request<Episode>({ type: 'episode.start', tabId, task });
    const offered = await waitFor(started.id, ['awaiting_approval']);
    // Attempt 1's success is a learned procedure now, offered as a plan (issue 25): declined, the policy proposes
    // and JitRL adjusts, which is what this test checks.
    expect(offered.replay?.status).toBe('offered');
    await request<Episode>({ type: 'episode.plan', episodeId: started.id, decision: { kind: 'decline' } });
    const ep = await waitFor(started.id, ['awaiting_approval']);
    expect(ep.replay?.status).toBe('declined');
    expect(ep.attempt).toBe(2);
    const step = ep.steps[0]!;
    expect(JitrlStepEvidenceSchema.parse(step.evidence?.jitrl).neighbours.length).toBeGreaterThan(0);
    const value = (c: (typeof step.candidates)[number]) => JitrlCandidateEvidenceSchema.parse(c.evidence?.jitrl);
    const fill = step.candidates.find((c) => c.semantic === 'fill(<textbox "Full name">, "Ada Lovelace")')!;
    expect(value(fill).valueKind).toBe('known');
    // Q(fill) = V here (it is the only neighbour), so Ã(fill) = 0, while unseen
    // candidates get Q = 0 < V (Eq. 6, 1 − λ branch): they are pushed down.
    expect(value(fill).normAdvantage).toBe(0);
    expect(fill.adjustedProb).toBeGreaterThan(fill.baseProb);
    const unseen = step.candidates.filter((c) => value(c).valueKind === 'neutral');
    expect(unseen.length).toBeGreaterThan(0);
    for (const c of unseen) expect(c.adjustedLogit).toBeLessThan(c.baseLogit);
    expect(step.candidates[0]!.semantic).toBe(fill.semantic);
    await request({ type: 'episode.stop', episodeId: ep.id });
  });

  it('exports memory and refuses an import that is not ours, changing nothing', async () => {
    const exported = await request<{ json: string; filename: string }>({ type: 'memory.export' });
    const archive = JSON.parse(exported.json) as { format: string; transitions: unknown[] };
    expect(archive.format).toBe('apprentice-memory');
    expect(archive.transitions.length).toBeGreaterThanOrEqual(2);
    const bad = await send({ type: 'memory.import', json: '{"hello": 1}' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.name).toBe('ImportError');
    const after = await request<{ json: string }>({ type: 'memory.export' });
    expect((JSON.parse(after.json) as { transitions: unknown[] }).transitions).toHaveLength(archive.transitions.length);
  });
});
