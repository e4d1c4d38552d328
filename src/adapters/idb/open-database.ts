/**
 * Apprentice's IndexedDB database: the typed schema, the version history and
 * the step-by-step migrations that carry data written by older versions.
 *
 * Stores (current version):
 *   transitions  a stepRows store (step-rows.ts), keyPath id
 *     byPage     [origin, regUrl, createdAt]  retrieval: one bounded range per page type, newest first
 *     byOrigin   [origin, createdAt]          browsing a site, forgetting a site
 *     byEpisode  episodeId                    replacing an episode's rows in one transaction
 *   episodes     step records and checkpoints, keyPath id
 *     byOrigin [origin, startedAt], byOriginTask [origin, task, startedAt], byStatus status, byStartedAt startedAt
 *   experiences  a siteRows store (site-rows.ts), keyPath id; byOrigin origin, byKind [origin, kind]
 *   learnerData  every other learner's records (learning/learner-data-store.ts),
 *                keyPath [learnerId, origin, key]; byOrigin origin (forget a site),
 *                byLearnerUpdated [learnerId, updatedAt] (newest first per learner)
 *   meta         small key → value records (the migration log; each import's outcome by its id)
 */
// idb's openDB always uses the global factory; opening through `wrap` lets tests pass their own.
import { wrap, type DBSchema, type IDBPDatabase, type IDBPTransaction } from 'idb';
import type { StepRow } from '../../core/stores/step-rows.ts';
import type { Episode, EpisodeStatus } from '../../core/episode/episode.ts';
import type { LearnerDataRecord } from '../../core/learning/learner-data-store.ts';
import type { ImportOutcome } from '../../core/archive/import-outcome.ts';

export const APPRENTICE_DB_NAME = 'apprentice';
/** Bump together with a new entry in `migrations`. */
export const APPRENTICE_DB_VERSION = 3;

/** A siteRows row: the store only relies on these keys (and `kind`, for the byKind index); the declaring learner owns the rest. */
export interface SiteRowRecord {
  id: string;
  origin: string;
  [k: string]: unknown;
}

export interface MigrationRecord {
  from: number;
  to: number;
  at: number;
  /** Rows rewritten by this step. */
  rows: number;
}

export interface ApprenticeDbSchema extends DBSchema {
  transitions: {
    key: string;
    value: StepRow;
    indexes: { byPage: [string, string, number]; byOrigin: [string, number]; byEpisode: string };
  };
  episodes: {
    key: string;
    value: Episode;
    indexes: {
      byOrigin: [string, number];
      byOriginTask: [string, string, number];
      byStatus: EpisodeStatus;
      byStartedAt: number;
    };
  };
  experiences: {
    key: string;
    value: SiteRowRecord;
    indexes: { byOrigin: string; byKind: [string, string] };
  };
  learnerData: {
    key: [string, string, string];
    value: LearnerDataRecord;
    indexes: { byOrigin: string; byLearnerUpdated: [string, number] };
  };
  /** 'migrations' → the migration log; 'import:<id>' → that import's outcome (idb-archive-import.ts). */
  meta: { key: string; value: MigrationRecord[] | ImportOutcome };
}

export type ApprenticeDb = IDBPDatabase<ApprenticeDbSchema>;

// Migrations see the database as it was at that version, not as the current
// schema types describe it, so they work on the untyped view.
type UntypedDb = IDBPDatabase<unknown>;
type UpgradeTx = IDBPTransaction<unknown, string[], 'versionchange'>;
type Migration = (db: UntypedDb, tx: UpgradeTx) => Promise<number>;

/**
 * migrations[n] takes the database from version n to n + 1.
 *
 * Version 1 (the first release) stored transitions keyed by `site`, with the
 * raw `url` beside the regularized one, no `updatedAt` and no `rewardSource`
 * (every reward then came from the step evaluator); it had one store and the
 * indexes bySite and bySiteUrl.
 */
const migrations: Migration[] = [
  // 0 → 1
  async (db) => {
    const store = db.createObjectStore('transitions', { keyPath: 'id' });
    store.createIndex('bySite', 'site');
    store.createIndex('bySiteUrl', ['site', 'regUrl']);
    return 0;
  },
  // 1 → 2: key by origin, add updatedAt/rewardSource, drop the raw URL, add the
  // index that makes retrieval a bounded newest-first range, add the other stores.
  async (db, tx) => {
    const store = tx.objectStore('transitions');
    store.deleteIndex('bySite');
    store.deleteIndex('bySiteUrl');
    let rows = 0;
    let cursor = await store.openCursor();
    while (cursor) {
      const old: unknown = cursor.value;
      // Rows that are not even objects are left alone: reads validate and skip them.
      if (typeof old === 'object' && old !== null && 'site' in old) {
        const { site, url: _url, ...rest } = old as Record<string, unknown>;
        void _url;
        const createdAt = typeof rest['createdAt'] === 'number' ? rest['createdAt'] : 0;
        await cursor.update({
          ...rest,
          origin: site,
          updatedAt: typeof rest['updatedAt'] === 'number' ? rest['updatedAt'] : createdAt,
          rewardSource: rest['rewardSource'] ?? 'evaluator',
        });
        rows++;
      }
      cursor = await cursor.continue();
    }
    store.createIndex('byPage', ['origin', 'regUrl', 'createdAt']);
    store.createIndex('byOrigin', ['origin', 'createdAt']);
    store.createIndex('byEpisode', 'episodeId');

    const episodes = db.createObjectStore('episodes', { keyPath: 'id' });
    episodes.createIndex('byOrigin', ['origin', 'startedAt']);
    episodes.createIndex('byOriginTask', ['origin', 'task', 'startedAt']);
    episodes.createIndex('byStatus', 'status');
    episodes.createIndex('byStartedAt', 'startedAt');

    const experiences = db.createObjectStore('experiences', { keyPath: 'id' });
    experiences.createIndex('byOrigin', 'origin');
    experiences.createIndex('byKind', ['origin', 'kind']);

    db.createObjectStore('meta');
    return rows;
  },
  // 2 → 3: one generic store for every learner that is without a store of its own, so
  // adding a learner never needs another schema change. Nothing to rewrite.
  async (db) => {
    const learnerData = db.createObjectStore('learnerData', { keyPath: ['learnerId', 'origin', 'key'] });
    learnerData.createIndex('byOrigin', 'origin');
    learnerData.createIndex('byLearnerUpdated', ['learnerId', 'updatedAt']);
    return 0;
  },
];

if (migrations.length !== APPRENTICE_DB_VERSION) throw new Error('open-database: one migration per version');

export interface OpenApprenticeDbOptions {
  /** The IndexedDB factory; defaults to the global `indexedDB`. Tests pass a fresh fake-indexeddb factory. */
  factory?: IDBFactory;
  name?: string;
  /** Open at an older version (tests of migrations only). */
  version?: number;
}

export class DatabaseOpenError extends Error {
  override name = 'DatabaseOpenError';
}

/**
 * Opens (creating or migrating as needed) the database. Migrations run one
 * version at a time inside the upgrade transaction; if one fails the upgrade
 * aborts and the database stays at its old version with its data intact.
 */
export async function openApprenticeDb(options: OpenApprenticeDbOptions = {}): Promise<ApprenticeDb> {
  const factory = options.factory ?? globalThis.indexedDB;
  if (!factory) throw new DatabaseOpenError('IndexedDB is not available in this context');
  const name = options.name ?? APPRENTICE_DB_NAME;
  const version = options.version ?? APPRENTICE_DB_VERSION;
  if (!Number.isInteger(version) || version < 1 || version > APPRENTICE_DB_VERSION) {
    throw new DatabaseOpenError(`unknown database version ${version}`);
  }

  const request = factory.open(name, version);
  let migrationError: unknown = null;
  request.addEventListener('upgradeneeded', (event) => {
    const db = wrap(request.result) as UntypedDb;
    const tx = wrap(request.transaction as IDBTransaction) as unknown as UpgradeTx;
    const from = event.oldVersion;
    const to = event.newVersion ?? version;
    // An aborted upgrade is reported through the open request below, not here.
    tx.done.catch(() => undefined);
    void runMigrations(db, tx, from, to).catch((error: unknown) => {
      migrationError = error;
      try { tx.abort(); } catch { /* already finished */ }
    });
  });
  let db: ApprenticeDb;
  try {
    db = (await wrap(request)) as unknown as ApprenticeDb;
  } catch (error) {
    const cause = migrationError ?? error;
    throw new DatabaseOpenError(`could not open ${name} v${version}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
  // Another context (popup, side panel, worker) wants a newer version: step aside
  // instead of blocking its upgrade forever.
  db.addEventListener('versionchange', () => db.close());
  return db;
}

async function runMigrations(db: UntypedDb, tx: UpgradeTx, from: number, to: number): Promise<void> {
  const log: MigrationRecord[] = [];
  for (let v = from; v < to; v++) {
    const migrate = migrations[v];
    if (!migrate) throw new Error(`no migration from version ${v}`);
    const rows = await migrate(db, tx);
    log.push({ from: v, to: v + 1, at: Date.now(), rows });
  }
  if (db.objectStoreNames.contains('meta')) {
    const meta = tx.objectStore('meta');
    const earlier: unknown = await meta.get('migrations');
    await meta.put([...(Array.isArray(earlier) ? (earlier as MigrationRecord[]) : []), ...log], 'migrations');
  }
}

/** The migration log ('migrations' in the meta store, which also holds imports' outcomes). */
export async function migrationLog(db: ApprenticeDb): Promise<MigrationRecord[] | undefined> {
  const log = await db.get('meta', 'migrations');
  return Array.isArray(log) ? log : undefined;
}
