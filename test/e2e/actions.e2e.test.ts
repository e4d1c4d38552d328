/**
 * Every action kind against real headless Chromium, through the same page
 * agent the content script uses (bundled from src/content/inject-entry.ts),
 * with actions written in the action grammar and targets found through the
 * observation, as the agent does.
 */
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ActionResult } from '../../src/core/page/action.ts';
import type { PageObservation } from '../../src/core/page/observation.ts';
import { launchPlain } from '../support/chromium.ts';
import { actByGrammar, observeAll, pageAgentCode } from '../support/page-agent-harness.ts';
import { startStaticServer, type StaticServer } from '../support/static-server.ts';

const ROOT = resolve(import.meta.dirname, '../..');
let server: StaticServer;
let browser: Browser;
let page: Page;
let agentCode: string;

beforeAll(async () => {
  agentCode = await pageAgentCode();
  server = await startStaticServer(`${ROOT}/test/fixtures/sites`);
  browser = await launchPlain();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

beforeEach(async () => {
  await page?.close();
  page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  await page.addInitScript({ content: agentCode });
  await page.goto(`${server.origin}/actions/actions.html`);
});

const observe = (): Promise<PageObservation> => observeAll(page);

/** The ref of the element with this role and name in a fresh observation. */
async function ref(role: string, name: string): Promise<string> {
  const hit = (await observe()).nodes.find((n) => n.role === role && n.name === name);
  if (!hit?.ref) throw new Error(`no ${role} "${name}" in the observation`);
  return hit.ref;
}

const act = (text: string): Promise<ActionResult> => actByGrammar(page, text);

const text = (id: string) => page.evaluate((i) => document.getElementById(i)!.textContent, id);
const value = (id: string) => page.evaluate((i) => (document.getElementById(i) as HTMLInputElement).value, id);
const OK = { ok: true, navigated: false };

describe('pointer actions', () => {
  it('click fires the pointer/mouse sequence at the element centre and focuses it', async () => {
    expect(await act('click(<button "Record clicks">)')).toEqual(OK);
    expect(await page.evaluate(() => (window as unknown as { __seq: string[] }).__seq)).toEqual([
      'pointerover', 'pointerenter', 'mouseover', 'mouseenter', 'pointermove', 'mousemove',
      'pointerdown', 'mousedown', 'focus', 'pointerup', 'mouseup', 'click@xy',
    ]);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('clicker');
  });

  it('dblclick fires dblclick once', async () => {
    expect(await act('dblclick(<button "Double me">)')).toEqual(OK);
    expect(await text('dbl-out')).toBe('dbl: 1');
  });

  it('hover runs mouseenter handlers', async () => {
    expect(await page.isVisible('#tooltip')).toBe(false);
    expect(await act('hover(<button "Hover me">)')).toEqual(OK);
    expect(await page.isVisible('#tooltip')).toBe(true);
  });

  it('focus moves focus, and refuses what cannot take it', async () => {
    expect(await act('focus(<textbox "Notes">)')).toEqual(OK);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('notes');
    // An ARIA option without tabindex cannot take focus.
    expect(await act('focus(<option "Apple">)')).toEqual({ ok: false, code: 'invalid_action', message: '<div> cannot take focus' });
  });
});

describe('text entry', () => {
  it('fill updates a React-style controlled input (native setter defeats the value tracker)', async () => {
    expect(await act('fill(<textbox "React name">, "Ada, \\"the\\" (first)")')).toEqual(OK);
    expect(await value('react')).toBe('Ada, "the" (first)');
    expect(await text('react-state')).toBe('state:Ada, "the" (first)');
  });

  it('fill replaces an existing value and fires key/input events per character, then change', async () => {
    await page.evaluate(() => {
      const el = document.getElementById('plain')!;
      const log: string[] = [];
      for (const t of ['keydown', 'keypress', 'beforeinput', 'input', 'keyup', 'change']) {
        el.addEventListener(t, (e) => log.push(`${t}:${(e as KeyboardEvent).key ?? (e as InputEvent).data ?? ''}`));
      }
      (window as unknown as { __log: string[] }).__log = log;
    });
    expect(await act(`fill(<textbox "Plain text">, "Hi")`)).toEqual(OK);
    expect(await value('plain')).toBe('Hi');
    expect(await page.evaluate(() => (window as unknown as { __log: string[] }).__log)).toEqual([
      'beforeinput:', 'input:',
      'keydown:H', 'keypress:H', 'beforeinput:H', 'input:H', 'keyup:H',
      'keydown:i', 'keypress:i', 'beforeinput:i', 'input:i', 'keyup:i',
      'change:',
    ]);
  });

  it('fill types into number inputs, textareas and contenteditable', async () => {
    expect(await act('fill(<spinbutton "Quantity">, "12.5")')).toEqual(OK);
    expect(await value('qty')).toBe('12.5');
    expect(await act('fill(<textbox "Notes">, "line 1\\nline 2")')).toEqual(OK);
    expect(await value('notes')).toBe('line 1\nline 2');
    expect(await act('fill(<textbox "Rich editor">, "Hello world")')).toEqual(OK);
    expect(await text('editor')).toBe('Hello world');
  });

  it('clear empties a field', async () => {
    expect(await act('clear(<textbox "Plain text">)')).toEqual(OK);
    expect(await value('plain')).toBe('');
  });

  it('fill on a read-only input or a div is not_editable', async () => {
    expect(await act('fill(<textbox "Read only">, "x")')).toMatchObject({ ok: false, code: 'not_editable', message: '<input> is read-only' });
    expect(await act('fill(<button "Just a div">, "x")')).toMatchObject({ ok: false, code: 'not_editable', message: '<div> does not take typed text' });
    expect(await act('fill(<combobox "Color">, "x")')).toMatchObject({ ok: false, code: 'not_editable', message: '<select> does not take typed text; use select_option' });
  });
});

describe('choices', () => {
  it('select_option by label and by value fires change', async () => {
    expect(await act('select_option(<combobox "Color">, "Green")')).toEqual(OK);
    expect(await value('color')).toBe('g');
    expect(await text('color-out')).toBe('color:g');
    expect(await act('select_option(<combobox "Color">, "r")')).toEqual(OK);
    expect(await text('color-out')).toBe('color:r');
  });

  it('select_option on a missing or disabled option fails', async () => {
    expect(await act('select_option(<combobox "Color">, "Purple")')).toEqual({
      ok: false,
      code: 'not_selectable',
      message: 'no option "Purple"; options are "Pick one", "Red", "Green", "Blue"',
    });
    expect(await act('select_option(<combobox "Color">, "Blue")')).toMatchObject({ ok: false, code: 'disabled' });
    expect(await value('color')).toBe('');
  });

  it('select_option on an ARIA listbox clicks the option', async () => {
    expect(await act('select_option(<listbox "Fruit">, "Pear")')).toEqual(OK);
    expect(await text('fruit-out')).toBe('fruit:Pear');
    expect(await act('select_option(<listbox "Fruit">, "Kiwi")')).toMatchObject({ ok: false, code: 'not_selectable' });
  });

  it('select_option on a closed ARIA combobox opens it, then clicks the option', async () => {
    expect(await page.isVisible('#city-list')).toBe(false);
    expect(await act('select_option(<combobox "City">, "Tokyo")')).toEqual(OK);
    expect(await text('city')).toBe('Tokyo');
    expect(await page.isVisible('#city-list')).toBe(false);
    expect(await act('select_option(<button "Record clicks">, "x")')).toMatchObject({ ok: false, code: 'invalid_action' });
  });

  it('check/uncheck click only when the state differs', async () => {
    expect(await act('check(<checkbox "I agree">)')).toEqual(OK);
    expect(await text('agree-out')).toBe('agree: yes');
    expect(await act('check(<checkbox "I agree">)')).toEqual({ ok: true, navigated: false, note: 'already checked' });
    expect(await page.isChecked('#agree')).toBe(true);
    expect(await act('uncheck(<checkbox "I agree">)')).toEqual(OK);
    expect(await text('agree-out')).toBe('agree: no');
  });

  it('radios and ARIA switches', async () => {
    expect(await act('check(<radio "Large">)')).toEqual(OK);
    expect(await page.isChecked('#size-l')).toBe(true);
    expect(await page.isChecked('#size-s')).toBe(false);
    expect(await act('uncheck(<radio "Large">)')).toMatchObject({ ok: false, code: 'invalid_action' });
    expect(await act('check(<switch "Dark mode">)')).toEqual(OK);
    expect(await page.getAttribute('#sw', 'aria-checked')).toBe('true');
    expect(await act('check(<button "Record clicks">)')).toMatchObject({ ok: false, code: 'invalid_action', message: '<button> is not a checkbox, radio or switch' });
  });
});

describe('keys', () => {
  it('Enter in a form with a submit button clicks it (the page handles submit)', async () => {
    await act('fill(<textbox "Filter">, "shoes")');
    expect(await act('press(<textbox "Filter">, "Enter")')).toEqual(OK);
    expect(await text('spa-out')).toBe('submitted:shoes');
  });

  it('Enter in a lone search field submits its form and the page navigates', async () => {
    await act('fill(<searchbox "Search">, "red socks")');
    const result = await act('press("Enter")');
    expect(result).toEqual({ ok: true, navigated: true });
    await page.waitForURL('**/actions/target.html?q=red+socks');
    expect(await page.title()).toBe('Target page');
  });

  it('chords carry key, code, keyCode and modifier flags; preventDefault is honoured', async () => {
    expect(await act('press(<textbox "Key target">, "Control+k")')).toEqual({
      ok: true,
      navigated: false,
      note: 'the page handled the key itself (default prevented)',
    });
    expect(await text('keys-out')).toBe(
      'keydown:Control:ControlLeft:17:ctrl keydown:k:KeyK:75:ctrl keyup:k:KeyK:75:ctrl keyup:Control:ControlLeft:17',
    );
    expect(await page.getAttribute('#keys', 'data-palette')).toBe('open');
  });

  it('typing keys, Shift+letters, Backspace and Control+a', async () => {
    await act('press(<textbox "Key target">, "x")');
    await act('press("Shift+y")');
    expect(await value('keys')).toBe('xY');
    await act('press("Backspace")');
    expect(await value('keys')).toBe('x');
    await act('press("Control+a")');
    await act('press("z")');
    expect(await value('keys')).toBe('z');
  });

  it('Tab and Shift+Tab move focus in tab order', async () => {
    await act('focus(<textbox "First">)');
    expect(await act('press("Tab")')).toEqual(OK);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('tab2');
    expect(await act('press("Shift+Tab")')).toEqual(OK);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('tab1');
  });

  it('an unknown key is invalid_action', async () => {
    expect(await act('press("Hyper+q")')).toMatchObject({ ok: false, code: 'invalid_action', message: 'unknown key "Hyper" in "Hyper+q"' });
  });
});

describe('scroll', () => {
  it('scrolls the page and an element box', async () => {
    expect(await act('scroll(0, 400)')).toEqual(OK);
    expect(await page.evaluate(() => window.scrollY)).toBe(400);
    expect(await act('scroll(0, -400)')).toEqual(OK);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(await act('scroll(<button "Inside the box">, 0, 120)')).toEqual(OK);
    expect(await page.evaluate(() => document.getElementById('scroller')!.scrollTop)).toBe(120);
    expect(await act('scroll(0, -50)')).toEqual({ ok: true, navigated: false, note: 'the page did not move (already at its end?)' });
  });
});

describe('navigation', () => {
  it('a click that follows a link reports navigated, then back/forward move through history', async () => {
    expect(await act('click(<link "Go to target">)')).toEqual({ ok: true, navigated: true });
    await page.waitForURL('**/actions/target.html?from=link');
    expect(await act('go_back()')).toEqual({ ok: true, navigated: true });
    await page.waitForURL('**/actions/actions.html');
    expect(await act('go_forward()')).toEqual({ ok: true, navigated: true });
    await page.waitForURL('**/actions/target.html?from=link');
  });

  it('goto opens http(s) URLs, relative ones too, and rejects other schemes', async () => {
    expect(await act('goto("javascript:alert(1)")')).toEqual({ ok: false, code: 'invalid_action', message: 'only http(s) URLs can be opened, not javascript:' });
    expect(await act('goto("/actions/target.html?from=goto")')).toEqual({ ok: true, navigated: true });
    await page.waitForURL('**/actions/target.html?from=goto');
  });

  it('an in-page link changes the URL fragment: navigated, still the same document', async () => {
    expect(await act('click(<link "Jump to section 2">)')).toEqual({ ok: true, navigated: true });
    expect(await page.evaluate(() => location.hash)).toBe('#section-2');
  });

  it('a page navigating away while text is typed is reported as navigated', async () => {
    expect(await act('fill(<textbox "Navigating input">, "abc")')).toEqual({
      ok: false,
      code: 'navigated',
      message: 'the page navigated away while the text was being typed',
    });
    await page.waitForURL('**/actions/target.html?from=input');
  });
});

describe('errors on elements', () => {
  it('a removed element is element_gone', async () => {
    const r = await ref('button', 'Record clicks');
    await page.evaluate(() => document.getElementById('clicker')!.remove());
    expect(await page.evaluate((a) => globalThis.__apprentice!.act(a), { type: 'click' as const, target: { kind: 'ref' as const, ref: r } })).toEqual({
      ok: false,
      code: 'element_gone',
      message: `[${r}] is no longer on the page; observe again`,
    });
    // Never seen at all.
    expect(await page.evaluate(() => globalThis.__apprentice!.act({ type: 'click', target: { kind: 'ref', ref: '9999' } }))).toMatchObject({
      ok: false,
      code: 'element_gone',
    });
  });

  it('hidden and invisible elements are not_visible', async () => {
    const r = await ref('button', 'Hover me');
    await page.evaluate(() => (document.getElementById('hover-me')!.style.display = 'none'));
    expect(await page.evaluate((x) => globalThis.__apprentice!.act({ type: 'click', target: { kind: 'ref', ref: x } }), r)).toEqual({
      ok: false,
      code: 'not_visible',
      message: `[${r}] <button> is not visible`,
    });
    const r2 = await ref('button', 'Double me');
    await page.evaluate(() => (document.getElementById('dbl')!.style.visibility = 'hidden'));
    expect(await page.evaluate((x) => globalThis.__apprentice!.act({ type: 'click', target: { kind: 'ref', ref: x } }), r2)).toMatchObject({
      ok: false,
      code: 'not_visible',
    });
  });

  it('disabled and aria-disabled elements are disabled', async () => {
    expect(await act('click(<button "Disabled button">)')).toMatchObject({ ok: false, code: 'disabled' });
    expect(await act('click(<button "Aria disabled">)')).toMatchObject({ ok: false, code: 'disabled' });
  });

  it('a semantic target that reaches the page unresolved is refused', async () => {
    expect(
      await page.evaluate(() => globalThis.__apprentice!.act({ type: 'click', target: { kind: 'semantic', role: 'button', name: 'Record clicks' } })),
    ).toMatchObject({ ok: false, code: 'unresolved' });
  });

  it('terminal actions do not touch the page', async () => {
    expect(await act('send_msg_to_user("done, 3 items")')).toEqual(OK);
    expect(await act('report_infeasible("no such page")')).toEqual(OK);
    expect(page.url()).toBe(`${server.origin}/actions/actions.html`);
  });
});

describe('shadow DOM and same-origin frames', () => {
  it('fills and clicks inside an open shadow root and inside an iframe', async () => {
    await page.goto(`${server.origin}/shadow.html`);
    await page.waitForFunction(() => (document.getElementById('inner') as HTMLIFrameElement).contentDocument?.readyState === 'complete');
    expect(await act('fill(<textbox "Subscriber email">, "a@b.co")')).toEqual(OK);
    expect(await act('click(<button "Subscribe">)')).toEqual(OK);
    expect(await text('shadow-out')).toBe('Subscribed a@b.co');
    const frameRef = await ref('textbox', 'Frame search');
    expect(frameRef).toMatch(/^f\d+:\d+$/);
    expect(await act(`fill([${frameRef}], "in frame")`)).toEqual(OK);
    expect(await act('click(<button "Frame button">)')).toEqual(OK);
    const inner = page.frames().find((f) => f.url() === `${server.origin}/frame-inner.html`)!;
    expect(await inner.evaluate(() => document.getElementById('inner-out')!.textContent)).toBe('Frame clicked: in frame');
  });
});

describe('highlight', () => {
  it('draws one inert overlay box over the element and removes it', async () => {
    const r = await ref('button', 'Record clicks');
    await page.evaluate((x) => globalThis.__apprentice!.highlight(x), r);
    await page.evaluate((x) => globalThis.__apprentice!.highlight(x), r);
    const box = await page.evaluate(() => {
      const all = document.querySelectorAll('[data-apprentice-overlay]');
      const o = all[0] as HTMLElement;
      const b = document.getElementById('clicker')!.getBoundingClientRect();
      const s = o.getBoundingClientRect();
      return { count: all.length, aria: o.getAttribute('aria-hidden'), pe: o.style.pointerEvents, dx: s.left - b.left, dw: s.width - b.width };
    });
    expect(box).toEqual({ count: 1, aria: 'true', pe: 'none', dx: -2, dw: 4 });
    await page.evaluate(() => globalThis.__apprentice!.highlight(null));
    expect(await page.locator('[data-apprentice-overlay]').count()).toBe(0);
  });
});
