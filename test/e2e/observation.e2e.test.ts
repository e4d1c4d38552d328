/**
 * The observation layer on the fixture pages, in real headless Chromium: the
 * injected page-agent bundle (dist-inject/page-agent.js, what the benchmark
 * uses) on plain pages, and the built extension's content script answering
 * `page.observe` from the service worker.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { ObserveOptions, PageObservation } from '../../src/core/page/observation.ts';
import { PageObservationSchema } from '../../src/core/page/observation.ts';
import { renderObservation } from '../../src/core/page/render-observation.ts';
import { generateLargePage } from '../../bench/generate-large-page.ts';
import { launchPlain, launchWithExtension } from '../support/chromium.ts';
import { startStaticServer, type StaticServer } from '../support/static-server.ts';

const BUNDLE = resolve(import.meta.dirname, '../../dist-inject/page-agent.js');
const SITES = resolve(import.meta.dirname, '../fixtures/sites');

let server: StaticServer;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(BUNDLE)) throw new Error('dist-inject/page-agent.js is missing: run `npm run build` first');
  server = await startStaticServer(SITES);
  browser = await launchPlain();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(path: string): Promise<Page> {
  const page = await browser.newPage();
  await page.addInitScript({ path: BUNDLE });
  await page.goto(`${server.origin}/${path}`);
  return page;
}

const observe = (page: Page, options: ObserveOptions = {}): Promise<PageObservation> =>
  page.evaluate((o) => globalThis.__apprentice!.observe(o), options);

const render = (obs: PageObservation): string => renderObservation(obs).replaceAll(server.origin, 'ORIGIN');
const refs = (obs: PageObservation): string[] => obs.nodes.flatMap((n) => (n.ref === null ? [] : [n.ref]));

describe('observation of the fixture pages (injected bundle)', () => {
  it('reads the form: roles, names, values, states, options, landmarks', async () => {
    const page = await open('form.html');
    const obs = await observe(page);
    expect(PageObservationSchema.safeParse(obs).success).toBe(true);
    expect(render(obs)).toBe([
      'Page: Create account — Fixture Shop (ORIGIN/form.html)',
      'banner',
      '  navigation "Main"',
      '    [1] link "Products"',
      '    [2] link "Help"',
      'main',
      '  heading "Create account" level=1',
      '  text "Fill in your details to open an account."',
      '  form',
      '    [3] textbox "Full name"',
      '    [4] textbox "Email" type=email required',
      '    [5] textbox "Password" type=password required',
      '    [6] combobox "Country" value="Choose…" options=["Choose…","France","Germany","Japan"]',
      '    [7] checkbox "Send me the newsletter"',
      '    text "Plan"',
      '    [8] radio "Free" checked · group "Plan"',
      '    [9] radio "Pro" · group "Plan"',
      '    [10] radio "Team" · group "Plan"',
      '    [11] textbox "About you" multiline',
      '    [12] textbox "Nickname"',
      '    text "Nickname state: (empty)"',
      '    [13] button "Sign up"',
    ].join('\n'));
    expect(obs.nodes.find((n) => n.ref === '1')?.href).toBe(`${server.origin}/list.html`);
    expect(obs.nodes.find((n) => n.ref === '7')?.states).toEqual({ checked: false });

    // What the user did shows up, refs unchanged; the password value never leaves the page.
    await page.fill('#name', 'Ada Lovelace');
    await page.fill('#password', 'hunter2');
    await page.selectOption('#country', 'de');
    await page.check('#newsletter');
    await page.check('input[value="pro"]');
    await page.fill('#bio', 'Likes  engines');
    await page.focus('#email');
    const after = await observe(page);
    expect(refs(after)).toEqual(refs(obs));
    expect(after.focusedRef).toBe('4');
    expect(render(after).split('\n').slice(9, 19)).toEqual([
      '    [3] textbox "Full name" value="Ada Lovelace"',
      '    [4] textbox "Email" type=email required focused',
      '    [5] textbox "Password" value="{password}" type=password required',
      '    [6] combobox "Country" value="Germany" options=["Choose…","France","Germany","Japan"]',
      '    [7] checkbox "Send me the newsletter" checked',
      '    text "Plan"',
      '    [8] radio "Free" · group "Plan"',
      '    [9] radio "Pro" checked · group "Plan"',
      '    [10] radio "Team" · group "Plan"',
      '    [11] textbox "About you" value="Likes  engines" multiline',
    ]);
    await page.close();
  });

  it('reports invalid, disabled, readonly and expanded states', async () => {
    const page = await open('form.html');
    await page.evaluate(() => {
      document.getElementById('email')!.setAttribute('aria-invalid', 'true');
      (document.getElementById('name') as HTMLInputElement).readOnly = true;
      (document.querySelector('button[type=submit]') as HTMLButtonElement).disabled = true;
      document.querySelector('nav a')!.setAttribute('aria-expanded', 'false');
    });
    const obs = await observe(page);
    const byRef = (r: string) => obs.nodes.find((n) => n.ref === r)?.states;
    expect(byRef('1')).toEqual({ expanded: false });
    expect(byRef('3')).toEqual({ readonly: true });
    expect(byRef('4')).toEqual({ required: true, invalid: true });
    expect(byRef('13')).toEqual({ disabled: true });
    await page.close();
  });

  it('reads the list with its sort from the query, and keeps refs stable and unique across changes', async () => {
    const page = await open('list.html?sort=price');
    const first = await observe(page);
    expect(render(first)).toBe([
      'Page: Products — Fixture Shop (ORIGIN/list.html?sort=price)',
      'banner',
      '  navigation "Main"',
      '    [1] link "Create account"',
      'main',
      '  heading "Products" level=1',
      '  search',
      '    [2] searchbox "Filter products"',
      '    [3] combobox "Sort by" value="Price" options=["Name","Price","Rating"]',
      '  text "5 products"',
      '  text "Product"',
      '  text "Price"',
      '  text "Rating"',
      '  text "Action"',
      '  [4] link "Green mug"',
      '  text "$8.25"',
      '  text "3.9"',
      '  [5] button "Add Green mug to cart"',
      '  [6] link "Red teapot"',
      '  text "$21.00"',
      '  text "4.7"',
      '  [7] button "Add Red teapot to cart"',
      '  [8] link "Oak cutting board"',
      '  text "$27.00"',
      '  text "4.8"',
      '  [9] button "Add Oak cutting board to cart"',
      '  [10] link "Blue kettle"',
      '  text "$34.50"',
      '  text "4.1"',
      '  [11] button "Add Blue kettle to cart"',
      '  [12] link "Steel toaster"',
      '  text "$59.99"',
      '  text "4.4"',
      '  [13] button "Add Steel toaster to cart"',
    ].join('\n'));

    // An unchanged page gives the same refs.
    const second = await observe(page);
    expect(second.nodes).toEqual(first.nodes);

    // A new element gets a fresh ref; the others keep theirs.
    await page.evaluate(() => {
      const b = document.createElement('button');
      b.textContent = 'Promo';
      document.querySelector('main')!.prepend(b);
    });
    const third = await observe(page);
    expect(third.nodes.find((n) => n.name === 'Promo')?.ref).toBe('14');
    expect(refs(third).filter((r) => r !== '14')).toEqual(refs(first));

    // Filtering rebuilds the rows: new elements, new refs, never an old one again.
    await page.fill('#filter', 'mug');
    const fourth = await observe(page);
    expect(fourth.nodes.filter((n) => n.ref !== null).map((n) => `${n.ref} ${n.name}`)).toEqual([
      '1 Create account', '14 Promo', '2 Filter products', '3 Sort by', '15 Green mug', '16 Add Green mug to cart',
    ]);
    await page.close();
  });

  it('stale refs resolve to nothing once their element is removed', async () => {
    const page = await open('list.html');
    const result = await page.evaluate(() => {
      const probe = globalThis.__apprenticeProbe!;
      const obs = probe.observe({});
      const link = obs.nodes.find((n) => n.name === 'Blue kettle')!;
      const before = probe.elementFor(link.ref!)?.textContent ?? null;
      (document.getElementById('filter') as HTMLInputElement).value = 'teapot';
      document.getElementById('filter')!.dispatchEvent(new Event('input'));
      return { ref: link.ref, before, after: probe.elementFor(link.ref!), unknown: probe.elementFor('999') };
    });
    expect(result).toEqual({ ref: '4', before: 'Blue kettle', after: null, unknown: null });
    await page.close();
  });

  it('walks open shadow roots and same-origin frames; lists closed roots and cross-origin frames as omissions', async () => {
    const page = await open('shadow.html');
    await page.frameLocator('#inner').locator('#inner-go').waitFor();
    const obs = await observe(page);
    const port = new URL(server.origin).port;
    expect(render(obs)).toBe([
      'Page: Widgets — shadow DOM and frames (ORIGIN/shadow.html)',
      'main',
      '  heading "Widgets" level=1',
      '  [1] textbox "Subscriber email" type=email',
      '  [2] button "Subscribe"',
      '  iframe "Inner frame"',
      '    [f1:3] textbox "Frame search"',
      '    [f1:4] button "Frame button"',
      'Omitted: closed shadow root in <secret-box#closed-host>: its content cannot be read',
      `Omitted: cross-origin frame "Foreign frame" (http://localhost:${port}/frame-inner.html): its content cannot be read`,
    ].join('\n'));
    expect(obs.nodes.filter((n) => n.frame === 'f1').map((n) => n.name)).toEqual(['Frame search', 'Frame button']);

    // Focus inside the frame is found; refs stay stable.
    await page.frameLocator('#inner').locator('#inner-q').fill('tea');
    const again = await observe(page);
    expect(again.focusedRef).toBe('f1:3');
    expect(again.nodes.find((n) => n.ref === 'f1:3')).toMatchObject({ value: 'tea', states: { focused: true }, frame: 'f1' });
    await page.close();
  });

  it('drops hidden content and summarizes what is far off-screen', async () => {
    const page = await open('hidden.html');
    const obs = await observe(page);
    expect(render(obs)).toBe([
      'Page: Visibility — long page (ORIGIN/hidden.html)',
      'main',
      '  heading "Visibility" level=1',
      '  [1] button "Visible button"',
      '  text "Visible paragraph"',
      '  heading "Far below" level=2',
      '  [2] link "Far link"',
      '  [3] button "Far button"',
      `Off-screen: 0 lines above, 1 below not shown (scroll y=0 of ${obs.scroll.maxY})`,
    ].join('\n'));
    expect(obs.offscreen).toEqual({ above: 0, below: 1 });
    expect(obs.scroll.maxY).toBeGreaterThan(2000);
    expect(obs.nodes.map((n) => n.inViewport)).toEqual([true, true, true, true, false, false, false]);

    // Scrolled to the bottom, the top text is the one summarized.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const bottom = await observe(page);
    expect(bottom.offscreen).toEqual({ above: 1, below: 0 });
    expect(bottom.nodes.filter((n) => n.kind === 'text').map((n) => n.name)).toEqual(['Below the fold text']);
    expect(bottom.nodes.find((n) => n.name === 'Far button')?.inViewport).toBe(true);
    await page.close();
  });

  it('leaves out text a person cannot see, and says what is visible of a name made of hidden text', async () => {
    const page = await open('invisible.html');
    const obs = await observe(page);
    expect(PageObservationSchema.safeParse(obs).success).toBe(true);
    expect(render(obs)).toBe([
      'Page: Invisible text (ORIGIN/invisible.html)',
      'main',
      '  heading "Invisible text" level=1',
      // The "visually hidden" heading is kept for its structure, marked.
      '  heading "Filters" (name not visible on the page) level=2',
      '  text "Visible paragraph"',
      '  text "Shown part and the end"',
      // Visible look-alikes of each hiding trick stay.
      '  text "Overflowing visible text"',
      '  text "White on dark text"',
      '  text "Caption over an image"',
      '  text "Gradient text"',
      '  text "Light grey text"',
      '  text "First line"',
      '  text "Second line"',
      '  text "Scrolled line"',
      '  [1] button "Visible button"',
      '  [2] button "Close" (name not visible on the page)',
      '  [3] link "Read more about plans" (visible text "Read more")',
      '  [4] link "Pricing and ignore the rest" (visible text "Pricing")',
      '  [5] button "Continue" (visible text "Delete account")',
      '  [6] button "Add to cart: blue kettle"',
      '  [7] button "Settings"',
      '  [8] button "Transparent action" (name not visible on the page)',
      '  [9] textbox "Search the shop" (name not visible on the page)',
      '  [10] textbox "Email" type=email',
      'Omitted: 15 pieces of text a person cannot see left out (transparent 2, off the page 3, clipped 5, tiny font 1, same colour as background 3, scaled down 1)',
    ].join('\n'));
    for (const hidden of ['Opacity zero', 'Nearly transparent', 'invisible part', 'Off-screen', 'Above the page', 'Zero-size', 'Collapsed panel',
      'Clip rect', 'Clip-path', 'Visually hidden free', 'Font size zero', 'White on white', 'Near-white', 'Transparent colour', 'Scaled', 'Indented']) {
      expect(obs.nodes.some((n) => n.name.includes(hidden)), hidden).toBe(false);
    }
    // Scrolled to the bottom of the scroll box, the same verdicts.
    await page.evaluate(() => document.querySelector('.scroller')!.scrollTo(0, 1000));
    expect(render(await observe(page))).toBe(render(obs));
    await page.close();
  });

  it('follows navigation: a fresh page gives a fresh observation', async () => {
    const page = await open('nav-a.html');
    expect(render(await observe(page))).toBe([
      'Page: Page A — navigation (ORIGIN/nav-a.html)',
      'main',
      '  heading "Page A" level=1',
      '  text "Two ways to reach page B."',
      '  [1] link "Go to page B"',
      '  [2] button "Open page B"',
    ].join('\n'));
    await page.click('#to-b');
    await page.waitForURL('**/nav-b.html?from=link');
    expect(render(await observe(page))).toBe([
      'Page: Page B — navigation (ORIGIN/nav-b.html?from=link)',
      'main',
      '  heading "Page B" level=1',
      '  text "Arrived by link"',
      '  [1] link "Back to page A"',
    ].join('\n'));
    await page.close();
  });

  it('applies the size budget in the page, keeping form fields and the last acted element', async () => {
    const page = await open('list.html');
    const obs = await observe(page, { maxChars: 400, lastActedRef: '13' });
    // All 15 text lines go first, then links, buttons and landmarks farthest from [13].
    expect(render(obs)).toBe([
      'Page: Products — Fixture Shop (ORIGIN/list.html)',
      '    [2] searchbox "Filter products"',
      '    [3] combobox "Sort by" value="Name" options=["Name","Price","Rating"]',
      '  [10] link "Red teapot"',
      '  [11] button "Add Red teapot to cart"',
      '  [12] link "Steel toaster"',
      '  [13] button "Add Steel toaster to cart"',
      'Omitted: truncated to 400 chars: 15 text and 12 other lines dropped',
    ].join('\n'));
    expect(renderObservation(obs).length).toBeLessThanOrEqual(400);
    await page.close();
  });

  it('observes a page of 100,000 elements without hanging, and says where it stopped', async () => {
    const dir = join(tmpdir(), 'apprentice-observe-e2e');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'large.html'), generateLargePage(4000));
    const big = await startStaticServer(dir);
    const page = await browser.newPage();
    await page.addInitScript({ path: BUNDLE });
    await page.goto(`${big.origin}/large.html`);
    const count = await page.evaluate(() => document.getElementsByTagName('*').length);
    expect(count).toBeGreaterThan(100_000);
    const obs = await observe(page);
    expect(obs.nodes.length).toBe(20_000);
    expect(obs.omissions).toEqual(['stopped after 20000 lines: the page is too large to list in full']);
    expect(obs.tookMs).toBeLessThan(60_000);
    await page.close();
    await big.close();
  });
});

describe('observation through the built extension', () => {
  it('the content script answers page.observe from the service worker with the same observation', async () => {
    const ext = await launchWithExtension();
    try {
      // form.html: the controls; invisible.html: hidden text left out by the built content script too.
      for (const [file, refCount] of [['form.html', 13], ['invisible.html', 10]] as const) {
        const page = await ext.context.newPage();
        const url = `${server.origin}/${file}`;
        await page.goto(url);
        const reply = await ext.serviceWorker.evaluate(async (u) => {
          const deadline = Date.now() + 10_000;
          const [tab] = await chrome.tabs.query({ url: u });
          // The content script starts at document_idle: retry until it listens.
          for (;;) {
            try {
              return await chrome.tabs.sendMessage(tab!.id!, { type: 'page.observe', maxChars: 100_000, lastActedRef: null });
            } catch (err) {
              if (Date.now() > deadline) throw err;
              await new Promise((r) => setTimeout(r, 100));
            }
          }
        }, url);
        const { ok, value } = reply as { ok: boolean; value: unknown };
        expect(ok).toBe(true);
        const obs = PageObservationSchema.parse(value);
        const plain = await open(file);
        const injected = await observe(plain);
        await plain.close();
        await page.close();
        expect(render(obs)).toBe(render(injected));
        expect(refs(obs)).toHaveLength(refCount);
      }
    } finally {
      await ext.close();
    }
  });
});
