/**
 * Coverage part of `npm run bench:observe`: what a person can use that we
 * give a ref to, measured three ways, plus the ceiling and the snapshot size.
 *   - recall against Chromium's DOMSnapshot `isClickable` (visible, non-zero
 *     box, outermost), on the corpus, the shipped sites and the fixtures;
 *   - recall and precision against the corpus's ground-truth marks (`data-gt`);
 *   - ceiling: the corpus's and the shipped sites' scripted semantic solutions
 *     through observe → resolve → act (injected page agent);
 *   - its mutant: the corpus marks read by the observer at d0a9d7c (before
 *     clickable detection), which must miss the recall target;
 *   - rendered snapshot size on the shipped sites' pages, against the observer
 *     at commit d0a9d7c (before clickable detection), rebuilt from git here.
 * Prints Markdown tables, and returns the figures for bench/out/observe.json.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { markdownTable } from 'markdown-table';
import type { Browser, Page } from 'playwright-core';
import { resolveTasks } from './suite.ts';
import apprenticeSites from './suites/apprentice-sites/index.ts';
import { launchPlain } from '../test/support/chromium.ts';
import { startStaticServer } from '../test/support/static-server.ts';
import {
  CHROMIUM_CLICKABLE_MARK, SITES_DIR, injectedAgent, listCorpus, markChromiumClickables, markCoverage, runSolution,
} from '../test/support/corpus.ts';
import { SHIPPED_SOLUTIONS } from '../test/support/shipped-solutions.ts';

const ROOT = resolve(import.meta.dirname, '..');
const BUNDLE = join(ROOT, 'dist-inject/page-agent.js');
const BASELINE_COMMIT = 'd0a9d7c';
/** Outside the repository (the type-checker would read it there); packages resolve from ours. */
const BASELINE_DIR = join(tmpdir(), 'apprentice-observe-baseline');
const BASELINE_BUNDLE = join(BASELINE_DIR, 'page-agent.js');

interface Counts { marks: number; covered: number; refs: number; useful: number }
const zero = (): Counts => ({ marks: 0, covered: 0, refs: 0, useful: 0 });
const add = (a: Counts, b: Counts) => {
  a.marks += b.marks;
  a.covered += b.covered;
  a.refs += b.refs;
  a.useful += b.useful;
};
const pct = (a: number, b: number): string => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(1)}%`);

/** The page-agent bundle as it was at BASELINE_COMMIT, for the size comparison. */
async function baselineBundle(): Promise<string> {
  rmSync(BASELINE_DIR, { recursive: true, force: true });
  mkdirSync(BASELINE_DIR, { recursive: true });
  const tar = execFileSync('git', ['archive', BASELINE_COMMIT, 'src'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  execFileSync('tar', ['-x', '-C', BASELINE_DIR], { input: tar });
  await build({
    entryPoints: [join(BASELINE_DIR, 'src/content/inject-entry.ts')], outfile: BASELINE_BUNDLE,
    bundle: true, format: 'iife', platform: 'browser', target: 'chrome116', logLevel: 'warning', nodePaths: [join(ROOT, 'node_modules')],
  });
  return BASELINE_BUNDLE;
}

async function open(browser: Browser, bundle: string, url: string, setup?: (page: Page) => Promise<unknown>): Promise<Page> {
  const context = await browser.newContext();
  await context.addInitScript({ path: bundle });
  const page = await context.newPage();
  page.on('pageerror', () => {});
  await page.goto(url);
  if (setup) await setup(page);
  await page.waitForTimeout(50);
  return page;
}

const renderedChars = (page: Page) => page.evaluate(() => globalThis.__apprenticeProbe!.render(globalThis.__apprentice!.observe({})).length);

async function settle(page: Page): Promise<void> {
  await page.waitForTimeout(120);
  await page.waitForLoadState('load');
  await page.waitForFunction(() => document.readyState === 'complete' && globalThis.__apprentice !== undefined && (document.body?.childElementCount ?? 0) > 0);
}

export async function coverageReport(options: { quick: boolean }) {
  const corpus = listCorpus();
  const fixtures = await startStaticServer(SITES_DIR);
  const started = await apprenticeSites.start!();
  const tasks = resolveTasks(apprenticeSites, { baseUrl: started ? started.baseUrl : '' });
  const baseline = await baselineBundle();
  const browser = await launchPlain();
  const chromium = { corpus: zero(), shipped: zero(), fixtures: zero() };
  const marks = zero();
  /** The mutant of the recall figure: the same marks read by the observer at BASELINE_COMMIT (no clickable detection). */
  const mutantMarks = zero();
  const misses: string[] = [];
  const extras: string[] = [];
  const ceiling = { corpus: 0, corpusTotal: corpus.length, shipped: 0, shippedTotal: 0, failures: [] as string[] };
  const sizes: Array<{ page: string; before: number; after: number }> = [];
  try {
    for (const { file, solution } of corpus) {
      process.stderr.write(`observe-bench coverage: corpus/${file}\n`);
      const url = `${fixtures.origin}/corpus/${file}`;
      // One load per page: our marks, then Chromium's (an inert attribute), then the solution.
      const page = await open(browser, BUNDLE, url);
      const own = await markCoverage(page);
      add(marks, own);
      misses.push(...own.missed.map((m) => `corpus/${file}: ${m}`));
      extras.push(...own.extra.map((m) => `corpus/${file}: ${m}`));
      await markChromiumClickables(page);
      const cdp = await markCoverage(page, CHROMIUM_CLICKABLE_MARK);
      add(chromium.corpus, cdp);
      misses.push(...cdp.missed.map((m) => `corpus/${file} (Chromium clickable): ${m}`));
      const trace = await runSolution(injectedAgent(page), solution.steps, () => page.waitForTimeout(60));
      if ((await injectedAgent(page).goal()) === solution.goal) ceiling.corpus++;
      else ceiling.failures.push(`corpus/${file}: ${trace.map((t) => `${t.step} → ${t.ok ? 'ok' : t.detail}`).join(' | ')}`);
      await page.context().close();
      const before = await open(browser, baseline, url);
      // The old observer may throw on a page it never handled: then it covers none of that page's marks.
      add(mutantMarks, await markCoverage(before).catch(() => {
        misses.push(`corpus/${file} (mutant): the observer at ${BASELINE_COMMIT} threw; none of the page's ${own.marks} marks counted as covered`);
        return { ...zero(), marks: own.marks };
      }));
      await before.context().close();
    }

    // Shipped sites: every distinct start page (seeded as its task does), and the solutions.
    const seen = new Set<string>();
    for (const task of tasks) {
      if (seen.has(task.startUrl)) continue;
      seen.add(task.startUrl);
      process.stderr.write(`observe-bench coverage: ${task.startUrl}\n`);
      const setup = (p: Page) => task.setup?.(p, { seed: 3, attempt: 1 }) ?? Promise.resolve();
      let page = await open(browser, BUNDLE, task.startUrl, setup);
      await markChromiumClickables(page);
      const cdp = await markCoverage(page, CHROMIUM_CLICKABLE_MARK);
      add(chromium.shipped, cdp);
      misses.push(...cdp.missed.map((m) => `${new URL(task.startUrl).host} (Chromium clickable): ${m}`));
      const after = await renderedChars(page);
      await page.context().close();
      page = await open(browser, baseline, task.startUrl, setup);
      const before = await renderedChars(page);
      await page.context().close();
      sizes.push({ page: task.id.split('.')[0]!, before, after });
    }
    for (const [id, steps] of Object.entries(SHIPPED_SOLUTIONS)) {
      const task = tasks.find((t) => t.id === id);
      if (!task) continue;
      ceiling.shippedTotal++;
      process.stderr.write(`observe-bench ceiling: ${id}\n`);
      const page = await open(browser, BUNDLE, task.startUrl, (p) => task.setup?.(p, { seed: 3, attempt: 1 }) ?? Promise.resolve());
      const trace = await runSolution(injectedAgent(page), steps, () => settle(page));
      if (trace.every((t) => t.ok) && (await task.reward(page)) === 1) ceiling.shipped++;
      else ceiling.failures.push(`${id}: ${trace.map((t) => `${t.step} → ${t.ok ? 'ok' : t.detail}`).join(' | ')}`);
      await page.context().close();
    }

    if (!options.quick) {
      for (const file of ['form.html', 'list.html?sort=price', 'shadow.html', 'hidden.html', 'nav-a.html', 'actions/actions.html']) {
        const page = await open(browser, BUNDLE, `${fixtures.origin}/${file}`);
        await markChromiumClickables(page);
        const cdp = await markCoverage(page, CHROMIUM_CLICKABLE_MARK);
        add(chromium.fixtures, cdp);
        misses.push(...cdp.missed.map((m) => `${file} (Chromium clickable): ${m}`));
        await page.context().close();
      }
    }
  } finally {
    await browser.close();
    await fixtures.close();
    await apprenticeSites.stop!();
  }

  const all = zero();
  add(all, chromium.corpus);
  add(all, chromium.shipped);
  add(all, chromium.fixtures);
  console.log('\n## Coverage: what a person can use, with a ref\n');
  console.log(markdownTable([
    ['measure', 'pages', 'elements', 'with a ref', 'figure', 'target'],
    ['recall vs Chromium isClickable (visible, non-zero, outermost): corpus', String(corpus.length), String(chromium.corpus.marks), String(chromium.corpus.covered), pct(chromium.corpus.covered, chromium.corpus.marks), '≥ 98%'],
    ['recall vs Chromium isClickable: shipped sites', String(sizes.length), String(chromium.shipped.marks), String(chromium.shipped.covered), pct(chromium.shipped.covered, chromium.shipped.marks), '≥ 98%'],
    ...(options.quick ? [] : [['recall vs Chromium isClickable: fixture pages', '6', String(chromium.fixtures.marks), String(chromium.fixtures.covered), pct(chromium.fixtures.covered, chromium.fixtures.marks), '≥ 98%']]),
    ['recall vs Chromium isClickable: all', '', String(all.marks), String(all.covered), pct(all.covered, all.marks), '≥ 98%'],
    ['recall vs the corpus marks', String(corpus.length), String(marks.marks), String(marks.covered), pct(marks.covered, marks.marks), '≥ 98%'],
    [`mutant: recall vs the corpus marks, observer at ${BASELINE_COMMIT} (before clickable detection)`, String(corpus.length), String(mutantMarks.marks), String(mutantMarks.covered), pct(mutantMarks.covered, mutantMarks.marks), 'must miss ≥ 98%'],
    ['precision: refs that stand for a marked control', String(corpus.length), String(marks.refs), String(marks.useful), pct(marks.useful, marks.refs), '≥ 90%'],
    ['ceiling: corpus solutions', String(ceiling.corpusTotal), '', String(ceiling.corpus), pct(ceiling.corpus, ceiling.corpusTotal), '100%'],
    ['ceiling: shipped-site solutions', String(ceiling.shippedTotal), '', String(ceiling.shipped), pct(ceiling.shipped, ceiling.shippedTotal), '100%'],
  ]));
  const totalBefore = sizes.reduce((n, r) => n + r.before, 0);
  const totalAfter = sizes.reduce((n, r) => n + r.after, 0);
  console.log('\n## Snapshot size on the shipped sites (rendered chars)\n');
  console.log(markdownTable([
    ['start page', `before (${BASELINE_COMMIT})`, 'now', 'change'],
    ...sizes.map((r) => [r.page, String(r.before), String(r.after), `${(((r.after - r.before) / r.before) * 100).toFixed(1)}%`]),
    ['all', String(totalBefore), String(totalAfter), `${(((totalAfter - totalBefore) / totalBefore) * 100).toFixed(1)}% (target ≤ +25%)`],
  ]));
  if (misses.length > 0) console.log(`\nMisses (${misses.length}):\n${misses.map((m) => `  - ${m}`).join('\n')}`);
  if (extras.length > 0) console.log(`\nRefs not standing for a marked control (${extras.length}):\n${extras.map((m) => `  - ${m}`).join('\n')}`);
  if (ceiling.failures.length > 0) console.log(`\nCeiling failures:\n${ceiling.failures.map((m) => `  - ${m}`).join('\n')}`);
  return { chromium, marks, mutantMarks, ceiling, sizes, misses, extras };
}
