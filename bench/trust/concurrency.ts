/**
 * Concurrency and atomicity, against IndexedDB (fake-indexeddb in Node):
 * - two tabs' episodes writing the transitions store at once, `rounds` times:
 *   every row is there afterwards (0 lost updates);
 * - two tabs' episodes teaching each registry learner at once, in the
 *   worker's real topology (one learner, built once): its stored rows end
 *   exactly as if it had learned one after the other; the mutant builds one
 *   learner per learn over the same database, so nothing serialises the two
 *   (a learner whose mutant changes nothing has no shared key to protect:
 *   its row is a sanity count, not a headline figure);
 * - an import failing at its Nth write, for every N (the learners'
 *   learnerData rows included): every store unchanged.
 * Every learner is reached through the registry (no learner is named here).
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { openApprenticeDb, type ApprenticeDb } from '../../src/adapters/idb/open-database.ts';
import { IdbStepRowStore } from '../../src/adapters/idb/idb-step-row-store.ts';
import { idbLearnerStores } from '../../src/adapters/idb/idb-learner-stores.ts';
import { writeImportAtomically } from '../../src/adapters/idb/idb-archive-import.ts';
import { REGISTERED_LEARNERS, inMemoryLearnerStores, learnerMemories } from '../../src/core/learning/registry/registry-factories.ts';
import type { LearnerPorts, RegisteredLearner } from '../../src/core/learning/learner-definition.ts';
import { trajectoryOf } from '../../src/core/episode/trajectory.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import { silentLogger } from '../../src/core/ports.ts';
import { seededRandom } from '../../src/core/random.ts';
import type { StepRow } from '../../src/core/stores/step-rows.ts';
import type { Episode } from '../../src/core/episode/episode.ts';
import { recordedStepRecord } from '../../src/core/episode/episode.ts';

const ORIGIN = 'https://shop.example';

const transition = (episodeId: string, i: number): StepRow => ({
  id: `${episodeId}:${i}`, origin: ORIGIN, regUrl: '/p/{id}', effectiveState: [], stateTokens: [], task: 'buy a kettle', taskTokens: ['buy', 'kettle'],
  action: `click(<button "Step ${i}">)`, reward: 1, rewardSource: 'person', futureRewards: [1], episodeId, stepIndex: i, createdAt: i, updatedAt: i,
});

function episode(id: string, variant: number, learners: string[] = []): Episode {
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
    steps, answer: null, error: null, learners, attempt: 1, kind: 'live', startedAt: 0, endedAt: 1,
  };
}

/** The worker's ports over one database (offline: no model; a fixed clock, so runs compare row for row). */
function portsOn(db: ApprenticeDb): LearnerPorts {
  return {
    stores: idbLearnerStores(db, silentLogger),
    settings: () => DEFAULT_SETTINGS, model: () => null, clock: { now: () => 0 }, random: seededRandom(0),
  };
}

const LEARNER_STORES = ['transitions', 'experiences', 'learnerData'] as const;

/** Every row of the learners' stores, by store and key. */
async function learnerRows(db: ApprenticeDb): Promise<Map<string, string>> {
  const rows = new Map<string, string>();
  for (const name of LEARNER_STORES) {
    const [keys, values] = await Promise.all([db.getAllKeys(name), db.getAll(name)]);
    keys.forEach((key, i) => rows.set(`${name}:${JSON.stringify(key)}`, JSON.stringify(values[i])));
  }
  return rows;
}

/**
 * The learner's stored rows after `rounds` pairs of learns. 'serial': one after
 * the other; 'concurrent': at once, through one learner (the worker's real
 * topology: whatever queue the learner keeps serialises its read-modify-writes);
 * mutant 'unserialised': at once, each through its own learner over the same
 * database, so no queue stands between the two.
 */
async function learnedRows(definition: RegisteredLearner, rounds: number, mode: 'serial' | 'concurrent' | 'unserialised'): Promise<Map<string, string>> {
  const db = await openApprenticeDb({ factory: new IDBFactory() });
  const learner = definition.create(portsOn(db));
  const other = mode === 'unserialised' ? definition.create(portsOn(db)) : learner;
  const taught = (id: string, variant: number) => trajectoryOf(episode(id, variant, [definition.id]));
  for (let r = 0; r < rounds; r++) {
    const a = taught(`a${r}`, r);
    const b = taught(`b${r}`, r + 1);
    if (mode === 'serial') {
      await learner.learn?.(a);
      await learner.learn?.(b);
    } else await Promise.all([learner.learn?.(a), other.learn?.(b)]);
  }
  const rows = await learnerRows(db);
  db.close();
  return rows;
}

/** Rows of the serial result missing or different in `rows`, plus rows it does not have: lost or duplicated writes. */
function writesOffSerial(serial: Map<string, string>, rows: Map<string, string>): number {
  const off = [...serial].filter(([key, row]) => rows.get(key) !== row).length;
  return off + [...rows.keys()].filter((key) => !serial.has(key)).length;
}

/** A learner learning at once vs one after the other: rows lost or duplicated (0 with its queue; the mutant has none). */
export async function learnerWritesOffSerial(definition: RegisteredLearner, rounds: number, mode: 'concurrent' | 'unserialised'): Promise<{ rows: number; off: number }> {
  const serial = await learnedRows(definition, rounds, 'serial');
  return { rows: serial.size, off: writesOffSerial(serial, await learnedRows(definition, rounds, mode)) };
}

async function snapshot(db: ApprenticeDb): Promise<string> {
  return JSON.stringify([await db.getAll('transitions'), await db.getAll('episodes'), await db.getAll('experiences'), await db.getAll('learnerData')]);
}

/** The learners whose knowledge is learnerData records (no store of their own), in registry order. */
function learnerDataKeepers(): RegisteredLearner[] {
  const memories = learnerMemories({ stores: inMemoryLearnerStores(), settings: () => DEFAULT_SETTINGS, model: () => null, clock: { now: () => 0 }, random: seededRandom(0) });
  return REGISTERED_LEARNERS.filter((d) => memories.some((m) => m.id === d.id && m.memory.ownStore === undefined));
}

/** The label of the learner that keeps an own store by this name (how the transitions rows are printed). */
function keeperOf(store: string): string {
  const memories = learnerMemories({ stores: inMemoryLearnerStores(), settings: () => DEFAULT_SETTINGS, model: () => null, clock: { now: () => 0 }, random: seededRandom(0) });
  const id = memories.find((m) => m.memory.ownStore?.name === store)?.id;
  return REGISTERED_LEARNERS.find((d) => d.id === id)?.label ?? store;
}

/** Per registry learner that learns anything offline: concurrent learns vs serial, and the mutant's. */
async function sharedKeyRows(rounds: number): Promise<Record<string, number | string>> {
  const out: Record<string, number | string> = {};
  for (const definition of REGISTERED_LEARNERS) {
    const real = await learnerWritesOffSerial(definition, rounds, 'concurrent');
    if (real.rows === 0) continue; // learns nothing offline (needs a model): nothing to race
    const mutant = await learnerWritesOffSerial(definition, rounds, 'unserialised');
    out[`${definition.label}: concurrent learns (2 × rounds)`] = rounds * 2;
    out[`${definition.label}: stored rows (serial result)`] = real.rows;
    out[`${definition.label}: rows lost or different from the serial result`] = real.off;
    out[`${definition.label} mutant (each learn through its own learner): rows lost or different`] =
      `${mutant.off}${mutant.off === 0 ? ' — sanity count, not a headline: no shared key, the mutant cannot break it' : ''}`;
  }
  return out;
}

export async function runConcurrency(rounds: number): Promise<Record<string, number | string>> {
  const started = Date.now();
  // The transitions store: two connections (two tabs' episodes) writing at once.
  const factory = new IDBFactory();
  const tabA = new IdbStepRowStore(await openApprenticeDb({ factory }));
  const tabB = new IdbStepRowStore(await openApprenticeDb({ factory }));
  const perEpisode = 3;
  for (let r = 0; r < rounds; r++) {
    await Promise.all([
      tabA.putEpisode(`a${r}`, Array.from({ length: perEpisode }, (_, i) => transition(`a${r}`, i))),
      tabB.putEpisode(`b${r}`, Array.from({ length: perEpisode }, (_, i) => transition(`b${r}`, i))),
    ]);
  }
  const expected = rounds * 2 * perEpisode;
  const stored = await tabA.count();

  // Each learner: concurrent learning ends as serial learning does.
  const shared = await sharedKeyRows(Math.min(rounds, 300));

  // Imports failing at write N, for every N.
  const keepers = learnerDataKeepers();
  const base = {
    transitions: Array.from({ length: 6 }, (_, i) => transition('imp', i)),
    episodes: [episode('imp', 1), episode('imp2', 2)],
    experiences: [{ id: 'x1', origin: ORIGIN, kind: 'dynamics' }, { id: 'x2', origin: ORIGIN, kind: 'skill' }],
    learnerData: keepers.map(({ id: learnerId }, i) => ({ learnerId, origin: ORIGIN, key: 'k', value: { n: i }, updatedAt: i })),
  };
  const writes = base.transitions.length + base.episodes.length + base.experiences.length + base.learnerData.length;
  let unchanged = 0;
  for (let n = 0; n < writes; n++) {
    const db = await openApprenticeDb({ factory: new IDBFactory() });
    await writeImportAtomically(db, {
      own: [{ store: 'transitions', rows: [transition('old', 0), transition('imp', 0)] }],
      episodes: [episode('old', 0)], learnerData: keepers.slice(0, 1).map(({ id: learnerId }) => ({ learnerId, origin: ORIGIN, key: 'k', value: { n: -1 }, updatedAt: 0 })),
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
  const transitions = keeperOf('transitions');
  return {
    [`${transitions}: concurrent episode writes (2 tabs × rounds)`]: rounds * 2,
    [`${transitions}: rows expected / stored`]: `${expected} / ${stored}`,
    [`${transitions}: lost updates`]: expected - stored,
    ...shared,
    'import: failure positions tried': writes,
    'import: failures that left every store unchanged': unchanged,
    'time (s)': Math.round((Date.now() - started) / 1000),
  };
}
