/**
 * Observation benchmark (`npm run bench:observe`; `-- --quick` for the
 * CI-sized profile). Part 1, coverage: on the control-pattern corpus, the
 * shipped benchmark sites and the fixture pages, the recall of our refs
 * against Chromium's DOMSnapshot `isClickable` (visible, non-zero, outermost)
 * and against the corpus's own ground-truth marks, their precision, the
 * ceiling (scripted semantic solutions through observe → resolve → act), and
 * the rendered snapshot size on the shipped sites against the observer as it
 * was before clickable detection (commit d0a9d7c, rebuilt here).
 *
 * Part 2 (as before), on a generated page of
 * ≥ 20,000 elements and on the fixture pages, in one run, compares
 *   - our snapshot (dist-inject/page-agent-isolated.js in an isolated world,
 *     as the benchmark's page driver runs it, with the listener marks in the
 *     main world: observe + render),
 *   - Playwright's `locator('body').ariaSnapshot()`,
 *   - Chromium's own tree (`Accessibility.getFullAXTree` over CDP),
 * reports the rendered size, and the role+name agreement of our interactive
 * lines with Chromium's tree, pairing elements by DOM node (backendNodeId).
 *
 * Two timing conditions, both medians: "fresh" (page reloaded before every
 * call: the first snapshot after a navigation or DOM change, what an agent
 * step meets) and "steady" (the same call repeated on an unchanged page).
 * `--compare-worlds` also times the same snapshot in the page's main world
 * (dist-inject/page-agent.js, how the benchmark ran it before issue 11),
 * interleaved with the other calls, so both figures share the machine's load.
 * Prints a Markdown table and writes bench/out/observe.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { markdownTable } from 'markdown-table';
import { median } from 'simple-statistics';
import type { CDPSession, Page } from 'playwright-core';
import { launchPlain } from '../test/support/chromium.ts';
import { startStaticServer } from '../test/support/static-server.ts';
import { generateLargePage } from './generate-large-page.ts';
import { coverageReport } from './observe-coverage.ts';
import { attachIsolatedPageAgent, type IsolatedPageAgent } from './isolated-page-agent.ts';
import { helpIfAsked } from './cli.ts';

helpIfAsked('npm run bench:observe -- [flags]: timing and role/name agreement of the observation against Chromium\'s own accessibility tree.', {
  '--quick': 'fewer runs and pages (or OBSERVE_BENCH_QUICK=1)',
  '--compare-worlds': 'also time the page agent in the main world',
  '--timing-only': 'skip the coverage report',
});

const ROOT = resolve(import.meta.dirname, '..');
const MARKS_BUNDLE = join(ROOT, 'dist-inject/listener-marks.js');
const MAIN_WORLD_BUNDLE = join(ROOT, 'dist-inject/page-agent.js');
const COMPARE_WORLDS = process.argv.includes('--compare-worlds');
const OUT = join(ROOT, 'bench/out');
const PAGES_DIR = join(OUT, 'pages');
const FIXTURES = join(ROOT, 'test/fixtures/sites');
const LARGE_CARDS = Number(process.env['OBSERVE_BENCH_CARDS'] ?? 1000);
const QUICK = process.argv.includes('--quick') || process.env['OBSERVE_BENCH_QUICK'] === '1';
const RUNS_SMALL = QUICK ? 2 : 5;
const RUNS_LARGE = QUICK ? 2 : 3;

/**
 * Chromium-internal role names for elements whose ARIA role is the one on
 * the right (HTML-AAM); everything else is compared verbatim.
 */
const CHROME_ROLE_ALIASES: Record<string, string> = { DisclosureTriangle: 'button' };

interface Target { label: string; url: string; large: boolean }
interface Timing { fresh: number[]; steady: number[] }
interface Disagreement { ref: string; ours: string; chromium: string }
interface Row {
  page: string;
  elements: number;
  ours: Timing; aria: Timing; cdp: Timing;
  /** With --compare-worlds: the same snapshot in the page's main world. */
  oursMain?: Timing;
  ourInPageMs: number;
  ourChars: number; ariaChars: number;
  interactive: number; roleAgree: number; nameAgree: number; bothAgree: number;
  disagreements: Disagreement[];
}

const collapse = (s: string): string => s.replace(/\s+/g, ' ').trim();
const cap = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

async function timeIt<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now();
  const v = await fn();
  return [performance.now() - t, v];
}

async function fresh(page: Page, url: string): Promise<void> {
  await page.goto(url, { waitUntil: 'load', timeout: 300_000 });
  // Let the fixtures' own scripts settle (frames, custom elements) before timing.
  await page.waitForTimeout(50);
}

const ours = (agent: IsolatedPageAgent) =>
  agent.evaluate(() => {
    const obs = globalThis.__apprentice!.observe({});
    const text = globalThis.__apprenticeProbe!.render(obs);
    return { chars: text.length, inPage: obs.tookMs };
  });

const oursInMainWorld = (page: Page) =>
  page.evaluate(() => {
    const obs = globalThis.__apprentice!.observe({});
    return { chars: globalThis.__apprenticeProbe!.render(obs).length, inPage: obs.tookMs };
  });

async function measure(page: Page, agent: IsolatedPageAgent, cdp: CDPSession, target: Target): Promise<Pick<Row, 'ours' | 'oursMain' | 'aria' | 'cdp' | 'ourChars' | 'ariaChars' | 'ourInPageMs'>> {
  const runs = target.large ? RUNS_LARGE : RUNS_SMALL;
  const t: Record<'ours' | 'oursMain' | 'aria' | 'cdp', Timing> = {
    ours: { fresh: [], steady: [] }, oursMain: { fresh: [], steady: [] }, aria: { fresh: [], steady: [] }, cdp: { fresh: [], steady: [] },
  };
  let ourChars = 0;
  let ariaChars = 0;
  const inPage: number[] = [];
  const calls = {
    ours: async () => {
      const [ms, r] = await timeIt(() => ours(agent));
      ourChars = r.chars;
      inPage.push(r.inPage);
      return ms;
    },
    aria: async () => {
      const [ms, s] = await timeIt(() => page.locator('body').ariaSnapshot({ timeout: 600_000 }));
      ariaChars = s.length;
      return ms;
    },
    cdp: async () => (await timeIt(() => cdp.send('Accessibility.getFullAXTree', {})))[0],
    oursMain: async () => (await timeIt(() => oursInMainWorld(page)))[0],
  };
  for (const kind of COMPARE_WORLDS ? (['ours', 'oursMain', 'aria', 'cdp'] as const) : (['ours', 'aria', 'cdp'] as const)) {
    for (let i = 0; i < runs; i++) {
      await fresh(page, target.url);
      t[kind].fresh.push(await calls[kind]());
    }
    await calls[kind](); // warm-up for the steady condition
    for (let i = 0; i < runs; i++) t[kind].steady.push(await calls[kind]());
  }
  const { oursMain, ...rest } = t;
  return { ...rest, ...(COMPARE_WORLDS ? { oursMain } : {}), ourChars, ariaChars, ourInPageMs: median(inPage) };
}

/** Our interactive lines vs Chromium's AX nodes for the same DOM nodes. */
async function agreement(page: Page, agent: IsolatedPageAgent, cdp: CDPSession, target: Target) {
  await fresh(page, target.url);
  const lines = await agent.evaluate(() => {
    const probe = globalThis.__apprenticeProbe!;
    const obs = probe.observe({});
    const out: Array<{ ref: string; role: string; name: string }> = [];
    for (const n of obs.nodes) {
      // Clickable elements without an ARIA role have no Chromium role to agree with; coverage measures them.
      if (n.kind !== 'interactive' || n.ref === null || n.role === 'clickable') continue;
      const el = probe.elementFor(n.ref);
      if (el === null) continue;
      el.setAttribute('data-apprentice-ref', n.ref);
      out.push({ ref: n.ref, role: n.role, name: n.name });
    }
    return out;
  });

  // backendNodeId → our ref, across shadow roots and same-process frames.
  const { root } = (await cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as { root: DomNode };
  const refByBackend = new Map<number, string>();
  const stack: DomNode[] = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    const attrs = n.attributes ?? [];
    for (let i = 0; i + 1 < attrs.length; i += 2) if (attrs[i] === 'data-apprentice-ref') refByBackend.set(n.backendNodeId, attrs[i + 1]!);
    stack.push(...(n.children ?? []), ...(n.shadowRoots ?? []), ...(n.contentDocument ? [n.contentDocument] : []));
  }

  // Chromium's tree for every frame it will give us (cross-origin frames may refuse).
  const { frameTree } = (await cdp.send('Page.getFrameTree')) as { frameTree: FrameTree };
  const frameIds: string[] = [];
  const walk = (f: FrameTree): void => {
    frameIds.push(f.frame.id);
    for (const c of f.childFrames ?? []) walk(c);
  };
  walk(frameTree);
  const axByRef = new Map<string, { role: string; name: string; ignored: boolean }>();
  for (const frameId of frameIds) {
    let nodes: AxNode[] = [];
    try {
      nodes = ((await cdp.send('Accessibility.getFullAXTree', { frameId })) as { nodes: AxNode[] }).nodes;
    } catch {
      continue;
    }
    for (const ax of nodes) {
      if (ax.backendDOMNodeId === undefined) continue;
      const ref = refByBackend.get(ax.backendDOMNodeId);
      if (ref === undefined) continue;
      const role = String(ax.role?.value ?? '');
      axByRef.set(ref, { role: CHROME_ROLE_ALIASES[role] ?? role, name: String(ax.name?.value ?? ''), ignored: ax.ignored });
    }
  }

  let roleAgree = 0;
  let nameAgree = 0;
  let bothAgree = 0;
  const disagreements: Disagreement[] = [];
  for (const l of lines) {
    const ax = axByRef.get(l.ref);
    const r = ax !== undefined && !ax.ignored && ax.role === l.role;
    const nm = ax !== undefined && cap(collapse(ax.name), 200) === l.name;
    if (r) roleAgree++;
    if (nm) nameAgree++;
    if (r && nm) bothAgree++;
    else if (disagreements.length < 10) {
      disagreements.push({
        ref: l.ref,
        ours: `${l.role} "${l.name}"`,
        chromium: ax === undefined ? '(no AX node)' : `${ax.ignored ? 'ignored ' : ''}${ax.role} "${collapse(ax.name)}"`,
      });
    }
  }
  return { interactive: lines.length, roleAgree, nameAgree, bothAgree, disagreements };
}

interface DomNode {
  backendNodeId: number;
  attributes?: string[];
  children?: DomNode[];
  shadowRoots?: DomNode[];
  contentDocument?: DomNode;
}
interface FrameTree { frame: { id: string }; childFrames?: FrameTree[] }
interface AxNode { backendDOMNodeId?: number; ignored: boolean; role?: { value?: unknown }; name?: { value?: unknown } }

const fmt = (ms: number): string => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));
const pct = (a: number, b: number): string => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(1)}%`);

async function main(): Promise<void> {
  // `--timing-only` skips part 1 (coverage), e.g. to re-measure times alone.
  const coverage = process.argv.includes('--timing-only') ? null : await coverageReport({ quick: QUICK });
  mkdirSync(PAGES_DIR, { recursive: true });
  const largeName = `generated-${LARGE_CARDS}.html`;
  writeFileSync(join(PAGES_DIR, largeName), generateLargePage(LARGE_CARDS));
  const fixtures = await startStaticServer(FIXTURES);
  const generated = await startStaticServer(PAGES_DIR);
  const browser = await launchPlain();
  const rows: Row[] = [];
  try {
    const targets: Target[] = [
      { label: `generated (${LARGE_CARDS} products)`, url: `${generated.origin}/${largeName}`, large: true },
      ...(QUICK ? ['form.html'] : ['form.html', 'list.html?sort=price', 'shadow.html', 'hidden.html', 'nav-a.html']).map((p) => ({
        label: p, url: `${fixtures.origin}/${p}`, large: false,
      })),
    ];
    for (const target of targets) {
      const context = await browser.newContext();
      const page = await context.newPage();
      // The main-world bundle carries the marks too (installed once per document either way).
      await page.addInitScript({ path: COMPARE_WORLDS ? MAIN_WORLD_BUNDLE : MARKS_BUNDLE });
      const agent = await attachIsolatedPageAgent(page);
      const cdp = await context.newCDPSession(page);
      await fresh(page, target.url);
      const elements = await page.evaluate(() => document.getElementsByTagName('*').length);
      process.stderr.write(`observe-bench: ${target.label} (${elements} elements)…\n`);
      const timing = await measure(page, agent, cdp, target);
      const agree = await agreement(page, agent, cdp, target);
      rows.push({ page: target.label, elements, ...timing, ...agree });
      await context.close();
    }
  } finally {
    await browser.close();
    await fixtures.close();
    await generated.close();
  }

  const table = markdownTable([
    ['page', 'elements', 'ours fresh ms', 'ariaSnapshot fresh ms', 'CDP AX fresh ms', 'ours/aria fresh', 'ours steady ms', 'ariaSnapshot steady ms', 'CDP AX steady ms', 'ours/aria steady', 'ours chars', 'ariaSnapshot chars', 'interactive', 'role+name agree'],
    ...rows.map((r) => {
      const [of, af, cf, os, as, cs] = [r.ours.fresh, r.aria.fresh, r.cdp.fresh, r.ours.steady, r.aria.steady, r.cdp.steady].map((x) => median(x));
      return [
        r.page, String(r.elements), fmt(of!), fmt(af!), fmt(cf!), `${(of! / af!).toFixed(2)}×`, fmt(os!), fmt(as!), fmt(cs!), `${(os! / as!).toFixed(2)}×`,
        String(r.ourChars), String(r.ariaChars), String(r.interactive), pct(r.bothAgree, r.interactive),
      ];
    }),
  ]);
  const totals = rows.reduce((a, r) => ({ n: a.n + r.interactive, both: a.both + r.bothAgree, role: a.role + r.roleAgree, name: a.name + r.nameAgree }), { n: 0, both: 0, role: 0, name: 0 });
  console.log(table);
  if (COMPARE_WORLDS) {
    console.log(`\nThe same snapshot in the isolated world (what the benchmark runs) and in the page's main world (before issue 11), same run:\n`);
    console.log(markdownTable([
      ['page', 'isolated fresh ms', 'main world fresh ms', 'isolated steady ms', 'main world steady ms'],
      ...rows.map((r) => [r.page, fmt(median(r.ours.fresh)), fmt(median(r.oursMain!.fresh)), fmt(median(r.ours.steady)), fmt(median(r.oursMain!.steady))]),
    ]));
  }
  console.log(`\nRole+name agreement with Chromium on ${totals.n} interactive elements: ${pct(totals.both, totals.n)} (role ${pct(totals.role, totals.n)}, name ${pct(totals.name, totals.n)}).`);
  console.log('Times are wall-clock medians from Node (page round trip included); "fresh" reloads the page before each call.');
  for (const r of rows) for (const d of r.disagreements) console.log(`  differs on ${r.page} [${d.ref}]: ours ${d.ours} / Chromium ${d.chromium}`);
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, 'observe.json'), JSON.stringify({ when: new Date().toISOString(), quick: QUICK, largeCards: LARGE_CARDS, coverage, rows, totals }, null, 2));
  console.log(`\nwrote bench/out/observe.json`);
}

await main();
