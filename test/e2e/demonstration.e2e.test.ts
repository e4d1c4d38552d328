/**
 * A person's demonstration recorded through the built extension in real
 * Chromium: Playwright types, selects, checks and clicks as a person would;
 * the content script records semantic actions, recording follows a
 * navigation, and on stop CER holds dynamics and skills for the site and
 * JitRL its transitions. A password never reaches storage; an abandoned
 * demonstration (stopped, or its tab closed) is kept as partial.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Episode } from '../../src/core/episode/episode.ts';
import type { ExperienceEntry } from '../../src/learners/cer/core/experience.ts';
import { launchWithExtension, type ExtensionBrowser } from '../support/chromium.ts';
import { startStaticServer, type StaticServer } from '../support/static-server.ts';
import { messagesFrom } from '../support/extension-messaging.ts';

let browser: ExtensionBrowser;
let server: StaticServer;
let ui: Page;
let site: Page;
let tabId: number;

const { send, request } = messagesFrom(() => ui);

const PASSWORD = 's3cret-Pa55word';
const FORM_TITLE = 'Create account — Fixture Shop';
const LIST_TITLE = 'Products — Fixture Shop';

const getEpisode = (episodeId: string) => request<Episode>({ type: 'episode.get', episodeId });
const semantics = (e: Episode) => e.steps.map((s) => s.chosen?.semantic);

// Both from the extension page, so they keep working after the service worker was killed.
async function tabIdOf(url: string): Promise<number> {
  return ui.evaluate(async (u) => {
    const [tab] = await chrome.tabs.query({ url: u });
    return tab!.id!;
  }, url);
}
/** Whether the content script in the tab is recording right now (page.ping). */
async function recordingIn(id: number): Promise<boolean> {
  return ui.evaluate(async (t) => {
    try {
      const reply = (await chrome.tabs.sendMessage(t, { type: 'page.ping' })) as { ok: boolean; value?: { recording?: boolean } };
      return reply.ok && reply.value?.recording === true;
    } catch {
      return false;
    }
  }, id);
}
async function stepsOf(episodeId: string, n: number): Promise<Episode> {
  await expect.poll(async () => (await getEpisode(episodeId)).steps.length, { timeout: 10_000 }).toBe(n);
  return getEpisode(episodeId);
}

beforeAll(async () => {
  server = await startStaticServer(join(import.meta.dirname, '../fixtures/sites'));
  browser = await launchWithExtension();
  site = await browser.context.newPage();
  await site.goto(`${server.origin}/form.html`);
  ui = await browser.context.newPage();
  await ui.goto(`chrome-extension://${browser.extensionId}/src/ui/sidepanel/index.html`);
  tabId = await tabIdOf(`${server.origin}/form.html`);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('recording a demonstration', () => {
  const task = 'Sign up as Ada Lovelace from Germany on the Pro plan';

  it('refuses recorded steps that do not come from a content script', async () => {
    const reply = await send({ type: 'demo.step', action: 'click(<button "Sign up">)', url: `${server.origin}/form.html`, title: 'x' });
    expect(reply).toEqual({ ok: false, error: { name: 'ForbiddenSender', message: 'not an Apprentice content script' } });
    const bad = await send({ type: 'demo.stop', episodeId: 'nope', outcome: 'won' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.name).toBe('ProtocolError');
  });

  it('records a person filling the form, follows a navigation, and learns from it on success', async () => {
    const started = await request<Episode>({ type: 'demo.start', tabId, task });
    expect(started).toMatchObject({ kind: 'demonstration', status: 'running', tabId, origin: server.origin, steps: [] });
    expect(await recordingIn(tabId)).toBe(true);

    // In front, as the page a person works in (a background tab throttles the animation frames Playwright waits on).
    await site.bringToFront();
    await site.fill('#name', 'Ada Lovelace');
    await site.fill('#email', 'ada@example.com');
    await site.fill('#password', PASSWORD);
    // Chosen from the keyboard, as a person would (a script's selectOption dispatches untrusted events, which are not recorded).
    await site.focus('#country');
    await site.keyboard.press('g');
    await site.check('#newsletter');
    await site.check('input[name="plan"][value="pro"]');
    await site.fill('#bio', 'Mathematician');
    await site.click('button[type="submit"]');
    await expect.poll(() => site.textContent('#result')).toContain('country=de');
    await stepsOf(started.id, 8);

    // Kill the worker mid-recording (as MV3 does after 30 s idle): the recording lives in
    // IndexedDB, not in module state. The recording page's keep-awake port (and the side
    // panel's) reopen at once, which starts the worker again before the next action.
    const cdp = await browser.context.newCDPSession(site);
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    const workerUp = async () => {
      const { targetInfos } = await cdp.send('Target.getTargets');
      return targetInfos.some((t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${browser.extensionId}/`));
    };
    await expect.poll(workerUp, { timeout: 5_000 }).toBe(true);
    // A person's next action comes seconds later, when the revived worker has long finished starting.
    expect((await getEpisode(started.id)).steps).toHaveLength(8);

    // A link to another page: the new page's content script is armed again after it loads.
    await site.click('nav a:text("Products")');
    await site.waitForURL(`${server.origin}/list.html`);
    await expect.poll(() => recordingIn(tabId), { timeout: 10_000 }).toBe(true);
    await site.fill('#filter', 'kettle');
    await site.focus('#sort');
    await site.keyboard.press('p');
    await stepsOf(started.id, 11);

    // A page script typing, choosing and submitting is not the person: nothing is recorded.
    await site.evaluate(() => {
      const filter = document.querySelector<HTMLInputElement>('#filter')!;
      filter.value = 'forged by the page';
      filter.dispatchEvent(new Event('input', { bubbles: true }));
      filter.dispatchEvent(new Event('change', { bubbles: true }));
      const sort = document.querySelector<HTMLSelectElement>('#sort')!;
      sort.value = 'rating';
      sort.dispatchEvent(new Event('change', { bubbles: true }));
      filter.dispatchEvent(new FocusEvent('focusout', { bubbles: true }));
    });
    await new Promise((r) => setTimeout(r, 500));
    expect((await getEpisode(started.id)).steps).toHaveLength(11);

    const done = await request<Episode>({ type: 'demo.stop', episodeId: started.id, outcome: 'success' });
    expect(done.status).toBe('success');
    expect(await recordingIn(tabId)).toBe(false);

    const ep = await getEpisode(started.id);
    expect(semantics(ep)).toEqual([
      'fill(<textbox "Full name">, "Ada Lovelace")',
      'fill(<textbox "Email">, "ada@example.com")',
      'fill(<textbox "Password">, "{password}")',
      'select_option(<combobox "Country">, "Germany")',
      'check(<checkbox "Send me the newsletter">)',
      'check(<radio "Pro" in group "Plan">)',
      'fill(<textbox "About you">, "Mathematician")',
      'click(<button "Sign up">)',
      'click(<link "Products">)',
      'fill(<searchbox "Filter products">, "kettle")',
      'select_option(<combobox "Sort by">, "Price")',
    ]);
    expect(ep.status).toBe('success');
    expect(ep.kind).toBe('demonstration');
    expect(ep.steps.map((s) => s.chosen?.decision)).toEqual(Array(11).fill('demonstrated'));
    expect(ep.steps.map((s) => s.regUrl)).toEqual([...Array(9).fill('/form.html'), '/list.html', '/list.html']);
    expect(ep.steps.map((s) => s.pageTitle)).toEqual([...Array(9).fill(FORM_TITLE), LIST_TITLE, LIST_TITLE]);
    expect(ep.steps.map((s) => (s.result?.ok ? s.result.navigated : null))).toEqual([...Array(8).fill(false), true, false, false]);
    expect(ep.steps.map((s) => s.reward)).toEqual([...Array(10).fill(0.7), 1.2]);
    expect(JSON.stringify(ep)).not.toContain(PASSWORD);
    // Each step carries the element as the person acted on it, so taught steps count toward earned autonomy.
    expect(ep.steps[7]!.chosen?.target).toMatchObject({ role: 'button', name: 'Sign up', submits: true, formAction: `${server.origin}/form.html`, formMethod: 'get' });
    // What the form sent is part of the approval (issue 30); the password only as its mask.
    expect(ep.steps[7]!.chosen?.target?.formData?.find((f) => f.name === 'password')?.value).toBe('{password}');
    expect(ep.steps[8]!.chosen?.target).toEqual({ role: 'link', name: 'Products', href: `${server.origin}/list.html`, submits: false });
    expect(ep.steps[0]!.chosen?.target).toMatchObject({ role: 'textbox', name: 'Full name', submits: false });

    // CER distilled the demonstration into dynamics for both pages and a skill.
    const entries = await request<ExperienceEntry[]>({ type: 'learner.action', learnerId: 'cer', action: 'list', payload: { origin: server.origin } });
    const dynamics = entries.flatMap((e) => (e.kind === 'dynamics' ? [[e.regUrl, e.pageName]] : [])).sort();
    expect(dynamics).toEqual([['/form.html', FORM_TITLE], ['/list.html', LIST_TITLE]]);
    const skills = entries.filter((e) => e.kind === 'skill');
    expect(skills).toHaveLength(1);
    expect(skills[0]!.provenance).toMatchObject({ source: 'demonstration', episodeIds: [started.id] });
    expect(skills[0]!.steps.flatMap((s) => s.exampleActions)).toContain('fill(<textbox "Password">, "{password}")');
    expect(JSON.stringify(entries)).not.toContain(PASSWORD);

    // JitRL stored one transition per recorded step.
    const rows = await request<{ action: string; episodeId: string }[]>({ type: 'learner.action', learnerId: 'jitrl', action: 'list', payload: { origin: server.origin, query: '', limit: 100, offset: 0 } });
    expect(rows.filter((r) => r.episodeId === started.id).map((r) => r.action).sort()).toEqual([...semantics(ep)].sort());
    expect(JSON.stringify(rows)).not.toContain(PASSWORD);
  });

  it('replays the demonstration as experience in the next attempt on the site', async () => {
    await site.goto(`${server.origin}/form.html`);
    const entries = await request<ExperienceEntry[]>({ type: 'learner.action', learnerId: 'cer', action: 'list', payload: { origin: server.origin } });
    const started = await request<Episode>({ type: 'episode.start', tabId, task: 'Sign up as Grace Hopper from Japan on the Team plan' });
    await expect.poll(async () => (await getEpisode(started.id)).status, { timeout: 15_000 }).toBe('awaiting_approval');
    const step = (await getEpisode(started.id)).steps[0]!;
    const formDynamics = entries.find((e) => e.kind === 'dynamics' && e.regUrl === '/form.html')!;
    const skill = entries.find((e) => e.kind === 'skill')!;
    expect(step.replayed).toContain(formDynamics.id);
    expect(step.replayed).toContain(skill.id);
    await request({ type: 'episode.stop', episodeId: started.id });
  });

  it('records Enter in a field, and keeps an abandoned demonstration as partial', async () => {
    await site.goto(`${server.origin}/list.html`);
    await site.bringToFront();
    const started = await request<Episode>({ type: 'demo.start', tabId, task: 'Sort the products by rating' });
    await site.fill('#filter', 'mug');
    await site.press('#filter', 'Enter');
    await site.focus('#sort');
    await site.keyboard.press('r'); // chosen from the keyboard: a script's selectOption is not a person

    await stepsOf(started.id, 3);
    const done = await request<Episode>({ type: 'demo.stop', episodeId: started.id, outcome: 'abandoned' });
    expect(done.status).toBe('partial');
    const stored = await getEpisode(started.id);
    expect(stored.status).toBe('partial');
    expect(semantics(stored)).toEqual([
      'fill(<searchbox "Filter products">, "mug")',
      'press(<searchbox "Filter products">, "Enter")',
      'select_option(<combobox "Sort by">, "Rating")',
    ]);
  });

  it('keeps a demonstration whose tab closed as partial', async () => {
    const other = await browser.context.newPage();
    await other.goto(`${server.origin}/nav-a.html`);
    const otherTab = await tabIdOf(`${server.origin}/nav-a.html`);
    const started = await request<Episode>({ type: 'demo.start', tabId: otherTab, task: 'Open page B' });
    await other.click('#to-b');
    await stepsOf(started.id, 1);
    await other.close();
    await expect.poll(async () => (await getEpisode(started.id)).status, { timeout: 10_000 }).toBe('partial');
    expect(semantics(await getEpisode(started.id))).toEqual(['click(<link "Go to page B">)']);
  });
});
