/**
 * `npm run bench:team` — team memory through a real CouchDB-compatible server
 * (npm pouchdb-server, LevelDB on disk, loopback, random port):
 *
 *   replication  N learned items (remembered steps made into shared
 *                documents by the same code the extension uses) go from
 *                member A's local database to the server and from the
 *                server to member B's: time, documents per second, bytes
 *                per item.
 *   resumption   member C pulls the same N; the server is killed (SIGKILL)
 *                when half have landed and restarted on its data; C pulls
 *                again: lost = N − distinct items at C, duplicated = items
 *                held twice, re-sent = documents copied twice.
 *   secrets      every 100th item typed a password; every shared document
 *                is scanned for it.
 *
 * Sizes: 10k and 100k (`--quick`: 2k and 10k, the CI profile).
 * Mutant (`--mutant no-mask`): sharing without the secrets mask, to show the
 * scan can fail.
 *
 * `--carry`: the carry benchmark with two members instead (team-carry.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { markdownTable } from 'markdown-table';
import { carryMarkdown, runTeamCarry } from './team-carry.ts';
import type { StepRow } from '../src/core/stores/step-rows.ts';
import { shareItems } from '../src/core/sync/share-items.ts';
import { ownStoresOf } from '../src/core/learning/learner-definition.ts';
import { BENCH_CONFIGURATIONS, inMemoryLearnerStores, learnerMemories } from '../src/core/learning/registry/registry-factories.ts';
import { systemClock } from '../src/core/ports.ts';
import { seededRandom } from '../src/core/random.ts';
import { DEFAULT_SETTINGS } from '../src/core/settings.ts';
import { contentHashOf, docBytes, sharedDocId, type SharedDoc } from '../src/core/sync/shared-doc.ts';
import { memoryDb, remoteDb } from '../test/support/node-pouch.ts';
import { startTeamServer, type TeamServer } from '../test/support/pouchdb-server.ts';
import { helpIfAsked } from './cli.ts';
import type { PouchDatabase, PouchReplication } from '../src/adapters/sync/pouch-types.ts';

helpIfAsked('npm run bench:team -- [flags]: team memory sync against a local CouchDB-compatible server.', {
  '--quick': 'smaller stores (2,000 and 10,000 rows)',
  '--mutant no-mask': 'share without the secrets mask (the mutant)',
});
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const mutant = args.includes('--mutant') ? args[args.indexOf('--mutant') + 1] : null;
const SIZES = quick ? [2_000, 10_000] : [10_000, 100_000];
const SITE = 'https://backoffice.team.test';
const SECRET = 'Tr0ub4dor&3-bench';
const ME = { id: 'bench-member-a', name: 'A' };
/** Smaller batches for the resumption run, so "half way" falls between checkpoints. */
const RESUME_BATCH = { batch_size: 500, batches_limit: 4 };
const BATCH = { batch_size: Number(process.env.TEAM_BENCH_BATCH ?? 2000), batches_limit: 4 };

function transitions(n: number): StepRow[] {
  return Array.from({ length: n }, (_, i) => {
    const episodeId = `e${Math.floor(i / 10)}`;
    const step = i % 10;
    const action = i % 100 === 7 ? `fill(<textbox "Password">, "${SECRET}")` : `click(<button "Open order ${i % 997}">)`;
    const task = `refund order ${Math.floor(i / 10) % 5000}`;
    return {
      id: `${episodeId}:${step}`, origin: SITE, regUrl: '/orders/{id}', url: `${SITE}/orders/${i % 5000}`,
      effectiveState: step > 0 ? [`fill(<searchbox "Search orders">, "${Math.floor(i / 10) % 5000}")`] : [],
      stateTokens: step > 0 ? ['search', 'orders'] : [], task, taskTokens: task.split(' '), action,
      reward: step === 9 ? 1 : 0, rewardSource: 'person', futureRewards: Array.from({ length: 10 - step }, (_, k) => (k === 9 - step ? 1 : 0)),
      episodeId, stepIndex: step, createdAt: 1_700_000_000_000 + i, updatedAt: 1_700_000_000_000 + i,
    };
  });
}

/** The registry learners' own stores: they say where each exported row lives. */
const OWN_STORES = ownStoresOf(learnerMemories({
  stores: inMemoryLearnerStores(), settings: () => DEFAULT_SETTINGS, model: () => null, clock: systemClock, random: seededRandom(0),
}));

function docsFor(n: number): SharedDoc[] {
  const rows = transitions(n);
  if (mutant !== 'no-mask') {
    return shareItems({ archive: { transitions: rows, experiences: [] }, ownStores: OWN_STORES, sharedSites: [SITE], me: ME, fromTeammate: () => false, appVersion: '0.1.0', now: 1_700_000_000_000 }).docs;
  }
  // The mutant: the same documents without the mask.
  return rows.map((t) => {
    const contentHash = contentHashOf(t);
    return {
      _id: sharedDocId({ part: 'transitions', origin: SITE, key: t.id, contentHash, author: ME.id }), type: 'apprentice-item', schema: 1, part: 'transitions', origin: SITE, key: t.id, contentHash,
      provenance: { author: ME, taughtAt: t.updatedAt, sharedAt: 0, episodeId: t.episodeId, appVersion: '0.1.0' }, item: t as unknown as SharedDoc['item'],
    };
  });
}

async function timed<T>(f: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const start = performance.now();
  const value = await f();
  return { value, seconds: (performance.now() - start) / 1000 };
}

async function fill(db: PouchDatabase, docs: readonly SharedDoc[]): Promise<void> {
  for (let i = 0; i < docs.length; i += 5000) await db.bulkDocs(docs.slice(i, i + 5000));
}

/** Pulls until about half is in, kills the server, restarts it on its data, pulls again. */
async function resumption(server: TeamServer, restart: () => Promise<TeamServer>, database: string, n: number) {
  const c = memoryDb('c');
  let written = 0;
  let killed: Promise<void> | null = null;
  const first: PouchReplication = c.replicate.from(remoteDb(server.url, database, server.admin), RESUME_BATCH);
  first.on('change', (info) => {
    written = (info as { docs_written: number }).docs_written;
    if (written >= n / 2) killed ??= server.stop({ hard: true });
  });
  await Promise.resolve(first).then(() => undefined, () => undefined);
  await killed;
  const atKill = (await c.info()).doc_count;
  const again = await restart();
  const second = await timed(() => Promise.resolve(c.replicate.from(remoteDb(again.url, database, again.admin), RESUME_BATCH)));
  const { rows } = await c.allDocs({});
  const items = new Set(rows.filter((r) => !r.id.startsWith('_')).map((r) => r.id.split('|').slice(0, 3).join('|')));
  const result = {
    atKill, resumedSeconds: second.seconds, secondWritten: second.value.docs_written,
    lost: n - items.size, duplicated: rows.length - items.size, resent: atKill + second.value.docs_written - n,
  };
  await c.destroy();
  return { result, server: again };
}

async function runSize(n: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'apprentice-bench-couch-'));
  let server = await startTeamServer({ dataDir });
  const database = `bench-${n}`;
  await server.createDatabase(database);
  const build = await timed(async () => docsFor(n));
  const docs = build.value;
  const bytes = docs.reduce((sum, d) => sum + docBytes(d), 0);
  const leaked = docs.filter((d) => JSON.stringify(d).includes(SECRET)).length;
  const a = memoryDb('a');
  await fill(a, docs);
  const cpuStart = process.cpuUsage();
  const serverCpuStart = server.cpuSeconds() ?? 0;
  const push = await timed(() => Promise.resolve(a.replicate.to(remoteDb(server.url, database, server.admin), BATCH)));
  const b = memoryDb('b');
  const pull = await timed(() => Promise.resolve(b.replicate.from(remoteDb(server.url, database, server.admin), BATCH)));
  const used = process.cpuUsage(cpuStart);
  const cpuSeconds = (used.user + used.system) / 1e6 + ((server.cpuSeconds() ?? 0) - serverCpuStart);
  const atB = (await b.info()).doc_count;
  const port = server.port;
  const resumed = await resumption(server, () => startTeamServer({ dataDir, port }), database, n);
  server = resumed.server;
  await server.stop();
  await a.destroy();
  await b.destroy();
  rmSync(dataDir, { recursive: true, force: true });
  return {
    items: n, buildSeconds: build.seconds, pushSeconds: push.seconds, pullSeconds: pull.seconds,
    replicationSeconds: push.seconds + pull.seconds, cpuSeconds, atB, bytesPerItem: bytes / n, leaked, resumption: resumed.result,
  };
}

if (args.includes('--carry')) {
  const profile = args.includes('--profile') ? args[args.indexOf('--profile') + 1]! : (quick ? 'quick' : 'full');
  const learners = args.includes('--learners') ? args[args.indexOf('--learners') + 1]! : BENCH_CONFIGURATIONS.showcase;
  const before = loadavg();
  const figures = await runTeamCarry({ profile, learners, withCorrections: args.includes('--corrections') });
  console.log(carryMarkdown(figures));
  console.log(`\nLoad average ${before.map((x) => x.toFixed(1)).join('/')} before, ${loadavg().map((x) => x.toFixed(1)).join('/')} after.`);
  mkdirSync(new URL('./out/', import.meta.url), { recursive: true });
  writeFileSync(new URL(`./out/team-carry-${profile}.json`, import.meta.url), JSON.stringify(figures, null, 2));
  process.exit(0);
}

const loadBefore = loadavg();
const results = [];
for (const n of SIZES) {
  process.stderr.write(`replicating ${n} items…\n`);
  results.push(await runSize(n));
}
const loadAfter = loadavg();
const f1 = (x: number) => x.toFixed(1);
console.log(`\n## Team memory replication through pouchdb-server (${quick ? 'quick profile' : 'full'}${mutant ? `, MUTANT ${mutant}` : ''})\n`);
console.log(markdownTable([
  ['items', 'A → server (s)', 'server → B (s)', 'total (s)', 'items/s', 'CPU s (members + server)', 'at B', 'bytes/item', 'secrets in documents'],
  ...results.map((r) => [String(r.items), f1(r.pushSeconds), f1(r.pullSeconds), f1(r.replicationSeconds), String(Math.round(r.items / r.replicationSeconds)), f1(r.cpuSeconds), String(r.atB), String(Math.round(r.bytesPerItem)), String(r.leaked)]),
]));
console.log('\nResumption: the server killed (SIGKILL) when half had landed at member C, restarted on its data, C pulls again.\n');
console.log(markdownTable([
  ['items', 'at C when killed', 'resumed in (s)', 'copied after restart', 're-sent', 'lost', 'duplicated'],
  ...results.map((r) => [String(r.items), String(r.resumption.atKill), f1(r.resumption.resumedSeconds), String(r.resumption.secondWritten), String(r.resumption.resent), String(r.resumption.lost), String(r.resumption.duplicated)]),
]));
const largest = results[results.length - 1]!;
const targets = [
  ['100k items replicate in ≤ 60 s (A → server → B)', quick ? 'not run (quick profile)' : `${f1(largest.replicationSeconds)} s — ${largest.replicationSeconds <= 60 ? 'met' : 'MISSED'}`],
  ['killed replication resumes: 0 lost, 0 duplicated', results.every((r) => r.resumption.lost === 0 && r.resumption.duplicated === 0) ? 'met' : 'MISSED'],
  ['0 secrets in any shared document', results.every((r) => r.leaked === 0) ? 'met (every document scanned)' : `MISSED (${results.map((r) => r.leaked).join(', ')} documents hold the secret)`],
];
console.log(`\n${markdownTable([['target', 'result'], ...targets])}`);
console.log(`\nMachine: ${cpus().length} cores shared with other work; load average ${loadBefore.map(f1).join('/')} before, ${loadAfter.map(f1).join('/')} after.`);
console.log('CPU s is the processor time the members and the server used: on an idle machine the wall time approaches it (replication is CPU-bound here; all on loopback).');
mkdirSync(new URL('./out/', import.meta.url), { recursive: true });
writeFileSync(new URL(`./out/team${quick ? '-quick' : ''}${mutant ? `-${mutant}` : ''}.json`, import.meta.url), JSON.stringify({ node: process.version, quick, mutant, loadBefore, loadAfter, results }, null, 2));
