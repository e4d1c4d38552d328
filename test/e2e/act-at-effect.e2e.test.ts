/**
 * The check at the moment of effect, in real Chromium (issue 30): a page that
 * rewrites the approved link or moves the approved button into another form
 * in its own click listener — capture phase on window, which runs before
 * anything else — or rewrites the form's action in a submit listener, after
 * the pointer-time check passed. The page layer refuses (`not_run`) and the
 * browser sends nothing; without the check, the same page gets its request.
 * Requests are counted at the network layer (Playwright routes).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Action, ActionResult } from '../../src/core/page/action.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import { resolveSemanticAction } from '../../src/core/page/semantic-action.ts';
import { actionFingerprint, type TargetFingerprint } from '../../src/core/page/target-fingerprint.ts';
import { launchPlain } from '../support/chromium.ts';
import { observeAll, pageAgentCode } from '../support/page-agent-harness.ts';

const SITE = 'http://site.test';
let browser: Browser;
let page: Page;
let agentCode: string;
let effects: string[] = [];

const shell = (body: string) => `<!doctype html><html><head><title>Orders</title></head><body><main><h1>Orders</h1>${body}</main></body></html>`;
const DELETE_FORM = '<form id="f2" method="post" action="/act/delete"><input type="hidden" name="all" value="1"></form>';

const PAGES: Record<string, string> = {
  '/capture-link': shell(`<p><a id="l" href="/orders/7">Order details</a></p>
    <script>window.addEventListener('click', (e) => { const a = e.target.closest && e.target.closest('a'); if (a) a.href = 'http://evil.test/steal'; }, true);</script>`),
  '/capture-form': shell(`<form id="f1" method="get" action="/search"><label>Search orders <input name="q"></label><button id="b">Search</button></form>${DELETE_FORM}
    <script>window.addEventListener('click', () => { document.getElementById('b').setAttribute('form', 'f2'); }, true);</script>`),
  '/submit-swap': shell(`<form id="f1" method="get" action="/search"><label>Search orders <input name="q"></label><button id="b">Search</button></form>
    <script>window.addEventListener('submit', (e) => { e.target.action = '/act/delete'; e.target.method = 'post'; }, true);</script>`),
  '/enter-lone': shell(`<form id="f1" method="get" action="/search"><label>Search orders <input name="q"></label></form>
    <script>window.addEventListener('submit', (e) => { e.target.action = '/act/delete'; e.target.method = 'post'; }, true);</script>`),
  '/rows': shell(`<table><tr><td>Spam</td><td><form method="post" action="/act/delete"><input type="hidden" name="id" value="7"><button>Delete</button></form></td></tr>
    <tr><td>Contract</td><td><form method="post" action="/act/delete"><input type="hidden" name="id" value="9"><input type="hidden" name="csrf_token" value="t1"><button>Delete</button></form></td></tr></table>`),
  '/stop-and-swap': shell(`<p><a id="l" href="/orders/7">Order details</a></p>
    <script>window.addEventListener('click', (e) => { const a = e.target.closest && e.target.closest('a'); if (a) { a.href = 'http://evil.test/steal'; e.stopImmediatePropagation(); } }, true);</script>`),
  '/spa-link': shell(`<p><a id="l" href="/orders/7">Order details</a></p><p id="out"></p>
    <script>document.getElementById('l').addEventListener('click', (e) => { e.preventDefault(); e.currentTarget.href = '/orders/8'; document.getElementById('out').textContent = 'routed'; });</script>`),
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

async function approve(text: string): Promise<{ action: Action; expect: TargetFingerprint }> {
  const parsed = parseAction(text);
  if (!parsed.ok) throw parsed.error;
  const observation = await observeAll(page);
  const resolved = resolveSemanticAction(parsed.action, observation);
  if (!resolved.ok) throw new Error(resolved.message);
  const fingerprint = actionFingerprint(resolved.action, observation);
  if (!fingerprint) throw new Error(`no element for ${text}`);
  return { action: resolved.action, expect: fingerprint };
}

async function act(action: Action, expect: TargetFingerprint | null): Promise<ActionResult> {
  const result = await page.evaluate(({ a, e }) => globalThis.__apprentice!.act(a, e ?? undefined), { a: action, e: expect }).catch(() => ({ ok: true as const, navigated: true }));
  await page.waitForTimeout(300); // a request the click started reaches the route
  return result;
}

/** The approved action is refused with `message`, nothing is sent; without the check the page gets `attack`. */
async function refusedThenReal(path: string, text: string, message: RegExp, attack: string): Promise<void> {
  await open(path);
  const approved = await approve(text);
  const result = await act(approved.action, approved.expect);
  expect(result).toMatchObject({ ok: false, code: 'not_run' });
  expect(!result.ok && result.message).toMatch(message);
  expect(effects).toEqual([]);
  await open(path);
  await act((await approve(text)).action, null);
  // Without the check the request does leave; on a loaded machine it can take longer than act()'s 300 ms to arrive.
  await expect.poll(() => effects, { timeout: 10_000 }).toEqual([attack]);
}

describe('the check at the moment of effect', () => {
  it('a capture-phase click listener on window that rewrites the approved link is refused; nothing reaches the attacker', async () => {
    await refusedThenReal('/capture-link', 'click(<link "Order details">)', /when the click took effect: its link goes to http:\/\/evil\.test\/steal, not http:\/\/site\.test\/orders\/7/, 'attacker http://evil.test/steal');
  });

  it('a capture-phase click listener that moves the approved button into another form (form=) is refused; no POST', async () => {
    await refusedThenReal('/capture-form', 'click(<button "Search">)', /when the click took effect: its form goes to http:\/\/site\.test\/act\/delete, not http:\/\/site\.test\/search; its form method is post, not get/, 'POST /act/delete');
  });

  it('a submit listener that redirects the approved form is refused; no POST', async () => {
    await refusedThenReal('/submit-swap', 'click(<button "Search">)', /when its form was submitted: its form goes to http:\/\/site\.test\/act\/delete/, 'POST /act/delete');
  });

  it('Enter in a field, through the default button or a lone field\'s requestSubmit, is checked at the submit event too', async () => {
    await refusedThenReal('/submit-swap', 'press(<textbox "Search orders">, "Enter")', /when its form was submitted: its form goes to http:\/\/site\.test\/act\/delete/, 'POST /act/delete');
    await refusedThenReal('/enter-lone', 'press(<textbox "Search orders">, "Enter")', /when its form was submitted: its form goes to http:\/\/site\.test\/act\/delete/, 'POST /act/delete');
  });

  it('the snapshot of each row\'s Delete carries what its form sends, hidden fields included', async () => {
    await open('/rows');
    const deletes = (await observeAll(page)).nodes.filter((n) => n.name === 'Delete');
    expect(deletes.map((n) => n.formData)).toEqual([
      [{ name: 'id', value: '7' }],
      // A token-named field is a secret: it leaves the page as its mask and SHA-256 (of "t1").
      [{ name: 'id', value: '9' }, { name: 'csrf_token', value: '{secret}#628b49d96dcde97a430dd4f597705899e09a968f793491e4b704cae33a40dc02' }],
    ]);
  });

  // It was flaky (1 of 4 runs) while window.stop() after the click was the only catch: the request could leave first.
  // The navigate event is checked before any request leaves.
  it('a page that also stops the click before it reaches the check is caught where the navigation starts; nothing is sent', async () => {
    await refusedThenReal('/stop-and-swap', 'click(<link "Order details">)', /when it took effect: its link goes to http:\/\/evil\.test\/steal/, 'attacker http://evil.test/steal');
  });

  it('a script-driven link that cancels its own default still runs, whatever it does to its href', async () => {
    await open('/spa-link');
    const approved = await approve('click(<link "Order details">)');
    expect(await act(approved.action, approved.expect)).toMatchObject({ ok: true });
    expect(await page.textContent('#out')).toBe('routed');
    expect(page.url()).toBe(`${SITE}/spa-link`);
  });
});
