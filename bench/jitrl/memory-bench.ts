/**
 * Decision benchmark for JitRL's memory (`npm run bench:memory`).
 *
 * Fills the IndexedDB store (fake-indexeddb in Node, the same `IdbStepRowStore`
 * the extension uses) with 1k, 10k and 100k transitions spread over sites,
 * page types and tasks the way a person's history grows (more sites as memory
 * grows; within a site a few page types are visited far more than others),
 * then times full decisions: retrieval (two-stage, Eq. 24) + values (Eqs. 4–7)
 * + the logit update (Eqs. 10, 25) for 3 model candidates. Baselines at 100k:
 * the same decision over a linear scan of all transitions, in IndexedDB and in
 * a plain array. Also reports the serialized bytes per stored transition.
 *
 * Prints a Markdown table and writes bench/out/memory.json. Not a timed test.
 */
import 'fake-indexeddb/auto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { serialize, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { performance } from 'node:perf_hooks';
import { markdownTable } from 'markdown-table';
import { quantile } from 'simple-statistics';
import { IdbStepRowStore } from '../../src/adapters/idb/idb-step-row-store.ts';
import { estimateValues } from '../../src/learners/jitrl/core/estimate-values.ts';
import { proposedCandidates, type Candidate } from '../../src/core/learning/candidate.ts';
import { PAGE_READ_LIMIT, rankNeighbours, retrieveNeighbours, type RetrievalQuery } from '../../src/learners/jitrl/core/retrieve-neighbours.ts';
import { InMemoryStepRowStore } from '../../src/core/stores/in-memory-step-rows.ts';
import { stateTokensOf, tokenize } from '../../src/core/page/tokenize.ts';
import type { StepRow } from '../../src/core/stores/step-rows.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import type { Action } from '../../src/core/page/action.ts';
import type { RandomSource } from '../../src/core/ports.ts';
import { seededRandom } from '../../src/core/random.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import { DEFAULT_JITRL } from '../../src/learners/jitrl/core/settings.ts';
import { helpIfAsked } from '../cli.ts';

helpIfAsked('npm run bench:memory: JitRL decision time over 1k, 10k and 100k stored transitions (fake-indexeddb), against a linear scan; writes bench/out/memory.json. It takes no flags.', {});

const SIZES = [1_000, 10_000, 100_000];
const TRANSITIONS_PER_SITE = 500;
const DECISIONS = 300;
const WARMUP = 30;
const SCAN_DECISIONS = 20;
const settings = DEFAULT_JITRL;

// ---------------------------------------------------------------- synthetic history

const PAGE_TYPES = [
  '/search', '/products/ID', '/cart', '/checkout', '/account/orders', '/account/orders/ID', '/category/SLUG',
  '/admin/customers', '/admin/customers/edit/ID', '/reports/sales', '/', '/help/SLUG',
];
const ITEMS = ['red shirt', 'blue mug', 'green lamp', 'oak desk', 'wool scarf', 'steel kettle', 'usb cable', 'yoga mat', 'garden hose', 'desk chair', 'phone case', 'tea pot'];
const NAMES = ['Ann Berg', 'Omar Diaz', 'Li Wei', 'Sara Cohen', 'Tom Hale', 'Maya Rao'];
const MONTHS = ['January', 'March', 'May', 'July', 'September', 'November'];
const TASKS = [
  (r: Pick) => `add the ${r(ITEMS)} to the cart`,
  (r: Pick) => `what is the price of the ${r(ITEMS)}`,
  (r: Pick) => `show my orders from ${r(MONTHS)}`,
  (r: Pick) => `update the shipping address of ${r(NAMES)}`,
  (r: Pick) => `find reviews of the ${r(ITEMS)} with 4 stars or more`,
  (r: Pick) => `cancel the most recent order of ${r(NAMES)}`,
  (r: Pick) => `report total sales for ${r(MONTHS)} by week`,
  (r: Pick) => `compare the ${r(ITEMS)} and the ${r(ITEMS)}`,
];
type Pick = <T>(xs: readonly T[]) => T;

/** 16 actions per page type, in semantic form; the last two no longer exist on the live page (dropped when retrieved). */
function pageActions(regUrl: string): string[] {
  const label = regUrl.split('/').filter(Boolean).join(' ') || 'home';
  const out = [
    `fill(<searchbox "Search">, "${label}")`, `click(<button "Search">)`, `click(<link "Next page">)`,
    `select_option(<combobox "Sort by">, "Price")`, `select_option(<combobox "Show">, "50 per page")`,
    `click(<tab "Details">)`, `click(<tab "Reviews">)`, `check(<checkbox "In stock only">)`,
    `fill(<textbox "From">, "2024-01-01")`, `fill(<textbox "To">, "2024-03-31")`, `click(<button "Apply filters">)`,
    `click(<button "Add to cart">)`, `click(<link "${label} details">)`, `send_msg_to_user("done with ${label}")`,
    `click(<button "Old promo banner">)`, `click(<link "Retired ${label} page">)`,
  ];
  return out;
}
const STATE_ACTIONS = (regUrl: string) => pageActions(regUrl).filter((a) => /^(fill|select_option|check|click\(<tab)/.test(a));

interface Site { origin: string; pageWeights: number[] }

function zipfWeights(n: number, s: number, rnd: RandomSource): number[] {
  // A site-specific ranking of page types, Zipf-distributed visits.
  const order = [...Array(n).keys()].sort(() => rnd.next() - 0.5);
  const w = new Array<number>(n).fill(0);
  order.forEach((page, rank) => { w[page] = 1 / (rank + 1) ** s; });
  return w;
}

function weighted(weights: readonly number[], rnd: RandomSource): number {
  const total = weights.reduce((a, b) => a + b, 0);
  let x = rnd.next() * total;
  for (let i = 0; i < weights.length; i++) {
    x -= weights[i]!;
    if (x <= 0) return i;
  }
  return weights.length - 1;
}

function makeSites(count: number, rnd: RandomSource): Site[] {
  return Array.from({ length: count }, (_, i) => ({ origin: `https://site-${i}.example.com`, pageWeights: zipfWeights(PAGE_TYPES.length, 1.1, rnd) }));
}

interface State { origin: string; regUrl: string; task: string; effectiveState: string[] }

function sampleState(sites: readonly Site[], rnd: RandomSource): State {
  const pick: Pick = (xs) => xs[Math.floor(rnd.next() * xs.length)]!;
  const site = pick(sites);
  const regUrl = PAGE_TYPES[weighted(site.pageWeights, rnd)]!;
  const stateLen = weighted([4, 3, 2, 1], rnd);
  const effectiveState = [...new Set(Array.from({ length: stateLen }, () => pick(STATE_ACTIONS(regUrl))))];
  return { origin: site.origin, regUrl, task: pick(TASKS)(pick), effectiveState };
}

function generate(n: number, seed: number): { sites: Site[]; episodes: StepRow[][] } {
  const rnd = seededRandom(seed);
  const sites = makeSites(Math.max(2, Math.round(n / TRANSITIONS_PER_SITE)), rnd);
  const episodes: StepRow[][] = [];
  let made = 0;
  let clock = 1_700_000_000_000;
  while (made < n) {
    const episodeId = `ep-${episodes.length}`;
    const len = Math.min(n - made, 1 + Math.floor(rnd.next() * 8));
    const first = sampleState(sites, rnd);
    const rewards = Array.from({ length: len }, () => Math.round((rnd.next() * 2 - 1) * 100) / 100);
    const steps: StepRow[] = [];
    for (let t = 0; t < len; t++) {
      const s = t === 0 ? first : { ...sampleState(sites.filter((x) => x.origin === first.origin), rnd), task: first.task };
      clock += 1 + Math.floor(rnd.next() * 5000);
      const actions = pageActions(s.regUrl);
      steps.push({
        id: `${episodeId}:${t}`,
        origin: s.origin,
        regUrl: s.regUrl,
        effectiveState: s.effectiveState,
        stateTokens: stateTokensOf(s.effectiveState),
        task: first.task,
        taskTokens: tokenize(first.task),
        action: actions[Math.floor(rnd.next() * actions.length)]!,
        reward: rewards[t]!,
        rewardSource: 'person',
        futureRewards: rewards.slice(t),
        episodeId,
        stepIndex: t,
        createdAt: clock,
        updatedAt: clock,
      });
    }
    episodes.push(steps);
    made += len;
  }
  return { sites, episodes };
}

// ---------------------------------------------------------------- one decision

interface Decision { query: RetrievalQuery; candidates: Candidate[]; live: Set<string> }

/** A decision in a state drawn from the same distribution as the history, with 3 model candidates. */
function makeDecision(sites: readonly Site[], rnd: RandomSource): Decision {
  const s = sampleState(sites, rnd);
  const actions = pageActions(s.regUrl);
  const live = new Set(actions.slice(0, -2));
  const picks = [...live].sort(() => rnd.next() - 0.5).slice(0, 3);
  return {
    query: { origin: s.origin, regUrl: s.regUrl, stateTokens: stateTokensOf(s.effectiveState), taskTokens: tokenize(s.task), stepIndex: Math.floor(rnd.next() * 6) },
    // The bench's "page" holds the live actions: semantic form is already the identity here.
    candidates: proposedCandidates(picks.map((semantic, i) => ({ page: { action: parse(semantic), semantic }, logit: Math.log([0.6, 0.3, 0.1][i]!) }))),
    live,
  };
}

function parse(semantic: string): Action {
  const parsed = parseAction(semantic);
  if (!parsed.ok) throw parsed.error;
  return parsed.action;
}

function decide(d: Decision, neighbours: Awaited<ReturnType<typeof retrieveNeighbours>>, rnd: RandomSource): number {
  const out = estimateValues({
    candidates: d.candidates,
    neighbours,
    resolve: (semantic) => (d.live.has(semantic) ? { action: parse(semantic), semantic } : null),
    settings,
    random: rnd,
  });
  return out.candidates.length;
}

type Retrieve = (q: RetrievalQuery) => Promise<Awaited<ReturnType<typeof retrieveNeighbours>>>;
interface Run { times: number[]; neighbours: number[]; candidates: number[] }

/**
 * Times decisions for several setups in interleaved rounds (one decision per
 * setup per round), so machine load and garbage collection fall on all of
 * them alike and the comparison isolates the setups themselves.
 */
async function timeInterleaved(
  setups: { next: () => Decision; retrieve: Retrieve }[],
  rounds: number,
  rnd: RandomSource,
): Promise<Run[]> {
  const runs: Run[] = setups.map(() => ({ times: [], neighbours: [], candidates: [] }));
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < setups.length; i++) {
      const setup = setups[i]!;
      const d = setup.next();
      const start = performance.now();
      const n = await setup.retrieve(d.query);
      const c = decide(d, n, rnd);
      const run = runs[i]!;
      run.times.push(performance.now() - start);
      run.neighbours.push(n.length);
      run.candidates.push(c);
    }
  }
  return runs;
}

const p = (xs: number[], q: number): number => (xs.length === 0 ? Number.NaN : quantile(xs, q));
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const ms = (x: number): string => `${x.toFixed(2)} ms`;

// ---------------------------------------------------------------- storage size

/**
 * Bytes one transition costs in IndexedDB, before LevelDB's compression:
 * the value in V8's structured-clone wire format (what Chrome stores, via
 * node:v8's serializer), the primary key, and one entry per index
 * (index key + primary key), keys counted as UTF-8 strings plus 8 bytes per number.
 */
function bytesPerTransition(t: StepRow): { value: number; keys: number; total: number } {
  const str = (s: string): number => Buffer.byteLength(s, 'utf8');
  const value = serialize(t).byteLength;
  const pk = str(t.id);
  const byPage = str(t.origin) + str(t.regUrl) + 8 + pk;
  const byOrigin = str(t.origin) + 8 + pk;
  const byEpisode = str(t.episodeId) + pk;
  const keys = pk + byPage + byOrigin + byEpisode;
  return { value, keys, total: value + keys };
}

// ---------------------------------------------------------------- main

interface SizeResult {
  transitions: number;
  sites: number;
  /** Rows of the queried page type that one decision reads (mean). */
  rowsRead: number;
  idb: { p50: number; p95: number; meanNeighbours: number; meanCandidates: number };
  memory: { p50: number; p95: number };
  episodeWriteP50: number;
  bytes: { value: number; keys: number; total: number; maxTotal: number };
}

// V8's gc(), for a clean heap before each timed phase (the fill leaves a lot of garbage).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

async function deleteDb(name: string): Promise<void> {
  await new Promise<void>((resolve) => {
    const req = indexedDB.deleteDatabase(name);
    req.onsuccess = req.onerror = req.onblocked = () => resolve();
  });
}
async function main(): Promise<void> {
  const data = SIZES.map((n) => ({ n, ...generate(n, 7) }));
  const vRnd = seededRandom(12);
  const nextFor = (sites: Site[], seed: number) => {
    const rnd = seededRandom(seed);
    return () => makeDecision(sites, rnd);
  };

  // IndexedDB: fill every size (bulk transactions; filling is setup, not measured), then time.
  const stores: IdbStepRowStore[] = [];
  const writeP50: number[] = [];
  for (const d of data) {
    process.stderr.write(`memory bench: filling IndexedDB with ${d.n} transitions…\n`);
    const store = await IdbStepRowStore.open({ name: `bench-memory-${d.n}` });
    const all = d.episodes.flat();
    for (let i = 0; i < all.length; i += 5000) {
      const tx = store.db.transaction('transitions', 'readwrite');
      for (const t of all.slice(i, i + 5000)) void tx.store.put(t);
      await tx.done;
    }
    // Episode writes through the real path: one transaction per episode, replacing nothing.
    const times: number[] = [];
    for (const e of generate(200, 99).episodes.slice(0, 40)) {
      const rows = e.map((t) => ({ ...t, id: `w-${t.id}`, episodeId: `w-${t.episodeId}`, origin: d.sites[0]!.origin }));
      const start = performance.now();
      await store.putEpisode(rows[0]!.episodeId, rows);
      times.push(performance.now() - start);
    }
    writeP50.push(p(times, 0.5));
    stores.push(store);
  }
  const byteSamples = data.map((d) => d.episodes.flat().slice(0, 2000).map(bytesPerTransition));
  const sitesOf = data.map((d) => d.sites);
  for (const d of data) d.episodes = [];
  gc();

  process.stderr.write('memory bench: timing IndexedDB decisions…\n');
  const idbSetups = stores.map((store, i) => ({ next: nextFor(sitesOf[i]!, 11), retrieve: (q: RetrievalQuery) => retrieveNeighbours(store, q, settings) }));
  await timeInterleaved(idbSetups, WARMUP, vRnd);
  const rowsRead: number[] = [];
  const idbRuns = await timeInterleaved(idbSetups, DECISIONS, vRnd);
  for (let i = 0; i < stores.length; i++) {
    const next = nextFor(sitesOf[i]!, 11);
    let rows = 0;
    for (let k = 0; k < 50; k++) {
      const q = next().query;
      rows += (await stores[i]!.byPage(q.origin, q.regUrl, PAGE_READ_LIMIT)).length;
    }
    rowsRead.push(rows / 50);
  }

  process.stderr.write('memory bench: timing the IndexedDB linear scan at the largest size…\n');
  const largest = stores.at(-1)!;
  const idbScan: Retrieve = async (q) => {
    const rows = (await largest.all()).filter((t) => t.origin === q.origin && t.regUrl === q.regUrl);
    return rankNeighbours(rows.sort((a, b) => b.createdAt - a.createdAt).slice(0, PAGE_READ_LIMIT), q, settings);
  };
  gc();
  const [idbScanRun, idbIndexRun] = await timeInterleaved(
    [{ next: nextFor(sitesOf.at(-1)!, 13), retrieve: idbScan }, { next: nextFor(sitesOf.at(-1)!, 13), retrieve: idbSetups.at(-1)!.retrieve }],
    SCAN_DECISIONS,
    vRnd,
  );
  for (const [i, store] of stores.entries()) {
    store.close();
    await deleteDb(`bench-memory-${SIZES[i]}`);
  }
  stores.length = 0;
  gc();

  // In memory: the indexed InMemoryStepRowStore against a scan of a plain array.
  process.stderr.write('memory bench: timing in-memory decisions…\n');
  const memStores: InMemoryStepRowStore[] = [];
  for (const n of SIZES) {
    const store = new InMemoryStepRowStore();
    for (const e of generate(n, 7).episodes) await store.putEpisode(e[0]!.episodeId, e);
    memStores.push(store);
  }
  const array = generate(SIZES.at(-1)!, 7).episodes.flat();
  const arrayScan: Retrieve = async (q) => {
    const rows = array.filter((t) => t.origin === q.origin && t.regUrl === q.regUrl);
    return rankNeighbours(rows.sort((a, b) => b.createdAt - a.createdAt).slice(0, PAGE_READ_LIMIT), q, settings);
  };
  gc();
  const memSetups = [
    ...memStores.map((store, i) => ({ next: nextFor(sitesOf[i]!, 11), retrieve: (q: RetrievalQuery) => retrieveNeighbours(store, q, settings) })),
    { next: nextFor(sitesOf.at(-1)!, 11), retrieve: arrayScan },
  ];
  await timeInterleaved(memSetups, WARMUP, vRnd);
  const memRuns = await timeInterleaved(memSetups, DECISIONS, vRnd);
  const arrayRun = memRuns.at(-1)!;

  const results: SizeResult[] = SIZES.map((n, i) => {
    const idbRun = idbRuns[i]!;
    const memRun = memRuns[i]!;
    const sizes = byteSamples[i]!;
    return {
      transitions: n,
      sites: sitesOf[i]!.length,
      rowsRead: rowsRead[i]!,
      idb: { p50: p(idbRun.times, 0.5), p95: p(idbRun.times, 0.95), meanNeighbours: mean(idbRun.neighbours), meanCandidates: mean(idbRun.candidates) },
      memory: { p50: p(memRun.times, 0.5), p95: p(memRun.times, 0.95) },
      episodeWriteP50: writeP50[i]!,
      bytes: { value: mean(sizes.map((s) => s.value)), keys: mean(sizes.map((s) => s.keys)), total: mean(sizes.map((s) => s.total)), maxTotal: Math.max(...sizes.map((s) => s.total)) },
    };
  });
  const scan = {
    idbIndexP50: p(idbIndexRun!.times, 0.5), idbIndexP95: p(idbIndexRun!.times, 0.95),
    idbP50: p(idbScanRun!.times, 0.5), idbP95: p(idbScanRun!.times, 0.95),
    arrayP50: p(arrayRun.times, 0.5), arrayP95: p(arrayRun.times, 0.95),
  };
  const first = results[0]!;
  const last = results.at(-1)!;
  const targets = {
    growth: { value: last.idb.p50 / first.idb.p50, target: '≤ 2', met: last.idb.p50 <= 2 * first.idb.p50 },
    vsIdbScan: { value: scan.idbP50 / scan.idbIndexP50, target: '≥ 10', met: scan.idbP50 >= 10 * scan.idbIndexP50 },
    // Informational: a JS array scan is what a store without IndexedDB would do; it is not the extension's path.
    vsArrayScan: { value: scan.arrayP50 / last.memory.p50, target: 'info only', met: null },
    bytes: { value: last.bytes.total, target: '≤ 2048', met: last.bytes.total <= 2048 },
  };

  const table = markdownTable([
    ['transitions', 'sites', 'rows read', 'decision p50 (IndexedDB)', 'p95', 'decision p50 (in-memory index)', 'p95', 'neighbours (mean)', 'candidates (mean)', 'episode write p50', 'bytes / transition'],
    ...results.map((r) => [
      String(r.transitions), String(r.sites), r.rowsRead.toFixed(0), ms(r.idb.p50), ms(r.idb.p95), ms(r.memory.p50), ms(r.memory.p95),
      r.idb.meanNeighbours.toFixed(1), r.idb.meanCandidates.toFixed(1), ms(r.episodeWriteP50), `${r.bytes.total.toFixed(0)} (value ${r.bytes.value.toFixed(0)} + keys ${r.bytes.keys.toFixed(0)})`,
    ]),
  ]);
  const scanTable = markdownTable([
    [`at 100k (interleaved; scan rows: ${SCAN_DECISIONS} decisions)`, 'p50', 'p95'],
    ['decision, IndexedDB index', ms(scan.idbIndexP50), ms(scan.idbIndexP95)],
    ['decision, IndexedDB linear scan', ms(scan.idbP50), ms(scan.idbP95)],
    ['decision, in-memory index', ms(last.memory.p50), ms(last.memory.p95)],
    ['decision, in-memory array linear scan', ms(scan.arrayP50), ms(scan.arrayP95)],
  ]);
  const targetTable = markdownTable([
    ['target', 'measured', 'goal', 'met'],
    ['decision at 100k ÷ at 1k (IndexedDB, p50)', `${targets.growth.value.toFixed(2)}×`, targets.growth.target, targets.growth.met ? 'yes' : 'NO'],
    ['IndexedDB scan ÷ IndexedDB index at 100k (p50)', `${targets.vsIdbScan.value.toFixed(0)}×`, targets.vsIdbScan.target, targets.vsIdbScan.met ? 'yes' : 'NO'],
    ['array scan ÷ in-memory index at 100k (p50)', `${targets.vsArrayScan.value.toFixed(1)}×`, targets.vsArrayScan.target, '–'],
    ['bytes per transition (mean, uncompressed)', last.bytes.total.toFixed(0), targets.bytes.target, targets.bytes.met ? 'yes' : 'NO'],
  ]);
  const text = [
    `JitRL decision benchmark (retrieve + values + update, ${DEFAULT_SETTINGS.policy.numCandidates} model candidates; fake-indexeddb on Node ${process.version}; page read limit ${PAGE_READ_LIMIT})`,
    '', table, '', scanTable, '', targetTable, '',
  ].join('\n');
  process.stdout.write(text);
  mkdirSync(new URL('../out/', import.meta.url), { recursive: true });
  writeFileSync(new URL('../out/memory.json', import.meta.url), JSON.stringify({ node: process.version, settings: { ...DEFAULT_JITRL, pageReadLimit: PAGE_READ_LIMIT }, results, scan, targets }, null, 2));
}

await main();
