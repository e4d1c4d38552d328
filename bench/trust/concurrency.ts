/**
 * Concurrency and atomicity, against IndexedDB (fake-indexeddb in Node):
 * - two tabs' episodes writing JitRL memory at once, `rounds` times: every
 *   row is there afterwards (0 lost updates);
 * - two tabs' episodes teaching CER (a read-modify-write of the site's
 *   buffer) at once, in the worker's real topology (one learner): the buffer
 *   ends exactly as if they had learned one after the other;
 * - an import failing at its Nth write, for every N (the learners' learnerData
 *   rows included): every store unchanged.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { openApprenticeDb, type ApprenticeDb } from '../../src/adapters/idb/open-database.ts';
import { IdbMemoryStore } from '../../src/adapters/idb/idb-memory-store.ts';
import { IdbSiteRows } from '../../src/adapters/idb/idb-site-rows.ts';
import { experienceStoreOn } from '../../src/core/learning/cer/experience-store.ts';
import { writeImportAtomically } from '../../src/adapters/idb/idb-archive-import.ts';
import { CerLearner } from '../../src/core/learning/cer/cer-learner.ts';
import { DEFAULT_CER } from '../../src/core/learning/cer/settings.ts';
import type { Transition } from '../../src/core/memory/transition.ts';
import type { Episode } from '../../src/core/episode/episode.ts';
import type { ExperienceEntry } from '../../src/core/learning/cer/experience.ts';
import { recordedStepRecord } from '../../src/core/episode/episode.ts';

const ORIGIN = 'https://shop.example';

const transition = (episodeId: string, i: number): Transition => ({
  id: `${episodeId}:${i}`, origin: ORIGIN, regUrl: '/p/{id}', effectiveState: [], stateTokens: [], task: 'buy a kettle', taskTokens: ['buy', 'kettle'],
  action: `click(<button "Step ${i}">)`, reward: 1, rewardSource: 'person', futureRewards: [1], episodeId, stepIndex: i, createdAt: i, updatedAt: i,
});

function episode(id: string, variant: number): Episode {
  const actions = [
    `fill(<searchbox "Search">, "kettle ${variant % 7}")`,
    'click(<button "Search">)',
    `click(<link "Kettle ${variant % 5}">)`,
    'click(<button "Add to cart">)',
  ];
  const steps = actions.map((semantic, i) => recordedStepRecord({
    index: i, url: `${ORIGIN}/${i === 0 ? '' : `p/${variant % 5}`}`, regUrl: i === 0 ? '/' : '/p/{id}', semantic, decision: 'approved',
    result: { ok: true, navigated: i === 1 }, startedAt: i, pageTitle: i === 0 ? 'Shop' : 'Kettle',
  }));
  return {
    id, origin: ORIGIN, task: `buy the kettle ${variant % 7}`, startUrl: `${ORIGIN}/`, tabId: null, status: variant % 3 === 0 ? 'failure' : 'success',
    steps, answer: null, error: null, learners: ['cer'], attempt: 1, kind: 'live', startedAt: 0, endedAt: 1,
  };
}

/**
 * CER's buffer after `rounds` pairs of learns. 'serial': one after the other;
 * 'concurrent': at once, through one learner (the worker's real topology: its
 * queue serialises the read-modify-write of the site's buffer); mutant
 * 'unserialised': at once, each through its own learner over the same
 * database, so no queue stands between the two read-modify-writes.
 */
async function cerState(rounds: number, mode: 'serial' | 'concurrent' | 'unserialised'): Promise<ExperienceEntry[]> {
  const db = await openApprenticeDb({ factory: new IDBFactory() });
  const store = experienceStoreOn(new IdbSiteRows(db, 'experiences'));
  const learnerOf = () => new CerLearner({ store, settings: () => DEFAULT_CER, model: null, clock: { now: () => 0 } });
  const learner = learnerOf();
  const other = mode === 'unserialised' ? learnerOf() : learner;
  for (let r = 0; r < rounds; r++) {
    const a = { episode: episode(`a${r}`, r) };
    const b = { episode: episode(`b${r}`, r + 1) };
    if (mode === 'serial') {
      await learner.learnFrom(a);
      await learner.learnFrom(b);
    } else await Promise.all([learner.learnFrom(a), other.learnFrom(b)]);
  }
  const rows = (await store.all()).sort((x, y) => (x.id < y.id ? -1 : 1));
  db.close();
  return rows;
}

/** Rows of the serial result missing or different in `rows`, plus rows it does not have: lost or duplicated writes. */
function writesOffSerial(serial: ExperienceEntry[], rows: ExperienceEntry[]): number {
  const byId = new Map(rows.map((r) => [r.id, JSON.stringify(r)]));
  const serialIds = new Set(serial.map((r) => r.id));
  const off = serial.filter((r) => byId.get(r.id) !== JSON.stringify(r)).length;
  return off + rows.filter((r) => !serialIds.has(r.id)).length;
}

/** CER learns at once vs one after the other: rows lost or duplicated (0 with the queue; the mutant has none). */
export async function cerWritesOffSerial(rounds: number, mode: 'concurrent' | 'unserialised'): Promise<{ rows: number; off: number }> {
  const serial = await cerState(rounds, 'serial');
  return { rows: serial.length, off: writesOffSerial(serial, await cerState(rounds, mode)) };
}

async function snapshot(db: ApprenticeDb): Promise<string> {
  return JSON.stringify([await db.getAll('transitions'), await db.getAll('episodes'), await db.getAll('experiences'), await db.getAll('learnerData')]);
}

export async function runConcurrency(rounds: number): Promise<Record<string, number | string>> {
  const started = Date.now();
  // JitRL memory: two connections (two tabs' episodes) writing at once.
  const factory = new IDBFactory();
  const tabA = new IdbMemoryStore(await openApprenticeDb({ factory }));
  const tabB = new IdbMemoryStore(await openApprenticeDb({ factory }));
  const perEpisode = 3;
  for (let r = 0; r < rounds; r++) {
    await Promise.all([
      tabA.putEpisode(`a${r}`, Array.from({ length: perEpisode }, (_, i) => transition(`a${r}`, i))),
      tabB.putEpisode(`b${r}`, Array.from({ length: perEpisode }, (_, i) => transition(`b${r}`, i))),
    ]);
  }
  const expected = rounds * 2 * perEpisode;
  const stored = await tabA.count();

  // CER: concurrent learning ends as serial learning does.
  const cerRounds = Math.min(rounds, 300);
  const cer = await cerWritesOffSerial(cerRounds, 'concurrent');
  const cerMutant = await cerWritesOffSerial(cerRounds, 'unserialised');

  // Imports failing at write N, for every N.
  const base = {
    transitions: Array.from({ length: 6 }, (_, i) => transition('imp', i)),
    episodes: [episode('imp', 1), episode('imp2', 2)],
    experiences: [{ id: 'x1', origin: ORIGIN, kind: 'dynamics' }, { id: 'x2', origin: ORIGIN, kind: 'skill' }] as unknown as ExperienceEntry[],
    learnerData: ['tfgrpo', 'evotest', 'metattl'].map((learnerId, i) => ({ learnerId, origin: ORIGIN, key: 'k', value: { n: i }, updatedAt: i })),
  };
  const writes = base.transitions.length + base.episodes.length + base.experiences.length + base.learnerData.length;
  let unchanged = 0;
  for (let n = 0; n < writes; n++) {
    const db = await openApprenticeDb({ factory: new IDBFactory() });
    await writeImportAtomically(db, {
      own: [{ store: 'transitions', rows: [transition('old', 0), transition('imp', 0)] }],
      episodes: [episode('old', 0)], learnerData: [{ learnerId: 'tfgrpo', origin: ORIGIN, key: 'k', value: { n: -1 }, updatedAt: 0 }],
    });
    const before = await snapshot(db);
    const rows = structuredClone(base);
    const flat = [...rows.transitions, ...rows.episodes, ...rows.experiences, ...rows.learnerData] as unknown as Record<string, unknown>[];
    flat[n]!['poison'] = () => undefined; // not structured-cloneable: the Nth put fails inside the transaction
    const own = [{ store: 'transitions', rows: rows.transitions }, { store: 'experiences', rows: rows.experiences }];
    const failed = await writeImportAtomically(db, { own, episodes: rows.episodes, learnerData: rows.learnerData }).then(() => false, () => true);
    if (failed && (await snapshot(db)) === before) unchanged++;
    db.close();
  }
  return {
    'JitRL: concurrent episode writes (2 tabs × rounds)': rounds * 2,
    'JitRL: rows expected / stored': `${expected} / ${stored}`,
    'JitRL: lost updates': expected - stored,
    'CER: concurrent learns (2 × rounds)': cerRounds * 2,
    'CER: buffer rows (serial result)': cer.rows,
    'CER: rows lost or different from the serial result': cer.off,
    'CER mutant (each learn through its own queue): rows lost or different': `${cerMutant.off}${cerMutant.off === 0 ? ' — NO: the figure cannot fail' : ''}`,
    'import: failure positions tried': writes,
    'import: failures that left every store unchanged': unchanged,
    'time (s)': Math.round((Date.now() - started) / 1000),
  };
}
