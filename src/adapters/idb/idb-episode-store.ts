/**
 * Episodes in IndexedDB. put() is a single structured-clone write with no
 * validation, so the agent loop can checkpoint after every step; reads
 * validate with EpisodeSchema and skip (count, log) rows that do not parse.
 */
import type { IDBPIndex } from 'idb';
import { EpisodeSchema, type Episode } from '../../core/episode/episode.ts';
import { upgradeStoredEpisode } from '../../core/learning/stored-step-upgrade.ts';
import { UNFINISHED_STATUSES, type EpisodeListOptions, type EpisodeStore } from '../../core/episode/episode-store.ts';
import { silentLogger, type Logger } from '../../core/ports.ts';
import { STRICT, writing } from './durable-writes.ts';
import { openApprenticeDb, type ApprenticeDb, type ApprenticeDbSchema, type OpenApprenticeDbOptions } from './open-database.ts';
import { LEARNERS } from '../../core/learning/registry/registry.ts';

/** Sorts above every number and string in IndexedDB key order. */
const AFTER_ALL: never[] = [];

type EpisodeIndex = IDBPIndex<ApprenticeDbSchema, ['episodes'], 'episodes', 'byOrigin' | 'byOriginTask' | 'byStartedAt', 'readonly'>;

export class IdbEpisodeStore implements EpisodeStore {
  #corruptRows = 0;

  constructor(
    readonly db: ApprenticeDb,
    private readonly logger: Logger = silentLogger,
  ) {}

  static async open(options: OpenApprenticeDbOptions & { logger?: Logger } = {}): Promise<IdbEpisodeStore> {
    return new IdbEpisodeStore(await openApprenticeDb(options), options.logger ?? silentLogger);
  }

  get corruptRowsSkipped(): number {
    return this.#corruptRows;
  }

  close(): void {
    this.db.close();
  }

  /** A checkpoint: committed with strict durability; a full disk is a StorageFullError. */
  async put(episode: Episode): Promise<void> {
    await writing('the episode', async () => {
      const tx = this.db.transaction('episodes', 'readwrite', STRICT);
      void tx.store.put(episode).catch(() => undefined);
      await tx.done;
    });
  }

  async get(id: string): Promise<Episode | null> {
    return this.#parse(await this.db.get('episodes', id));
  }

  async list(options: EpisodeListOptions): Promise<Episode[]> {
    if (options.limit <= 0) return [];
    const origin = options.origin ?? null;
    const task = options.task;
    const store = this.db.transaction('episodes').store;
    if (origin !== null && task !== undefined) {
      return this.#newestFirst(store.index('byOriginTask'), IDBKeyRange.bound([origin, task, -Infinity], [origin, task, AFTER_ALL]), options.limit);
    }
    if (origin !== null) {
      return this.#newestFirst(store.index('byOrigin'), IDBKeyRange.bound([origin, -Infinity], [origin, AFTER_ALL]), options.limit);
    }
    return this.#newestFirst(store.index('byStartedAt'), null, options.limit, task === undefined ? undefined : (e) => e.task === task);
  }

  async unfinished(): Promise<Episode[]> {
    const tx = this.db.transaction('episodes');
    const index = tx.store.index('byStatus');
    const rows = (await Promise.all(UNFINISHED_STATUSES.map((status) => index.getAll(status)))).flat();
    return this.#parseAll(rows).sort((a, b) => b.startedAt - a.startedAt || (a.id < b.id ? 1 : -1));
  }

  async delete(id: string): Promise<void> {
    await this.db.delete('episodes', id);
  }

  async forgetSite(origin: string): Promise<number> {
    const tx = this.db.transaction('episodes', 'readwrite');
    const keys = await tx.store.index('byOrigin').getAllKeys(IDBKeyRange.bound([origin, -Infinity], [origin, AFTER_ALL]));
    await Promise.all(keys.map((key) => tx.store.delete(key)));
    await tx.done;
    return keys.length;
  }

  async all(): Promise<Episode[]> {
    return this.#parseAll(await this.db.getAllFromIndex('episodes', 'byStartedAt'));
  }

  async #newestFirst(index: EpisodeIndex, range: IDBKeyRange | null, limit: number, keep?: (e: Episode) => boolean): Promise<Episode[]> {
    const out: Episode[] = [];
    let cursor = await index.openCursor(range, 'prev');
    while (cursor && out.length < limit) {
      const episode = this.#parse(cursor.value);
      if (episode && (!keep || keep(episode))) out.push(episode);
      cursor = await cursor.continue();
    }
    return out;
  }

  #parseAll(rows: unknown[]): Episode[] {
    const out: Episode[] = [];
    for (const row of rows) {
      const episode = this.#parse(row);
      if (episode) out.push(episode);
    }
    return out;
  }

  #parse(row: unknown): Episode | null {
    if (row === undefined) return null;
    // Rows written in an older format (a learner's evidence as step fields) are upgraded first.
    const parsed = EpisodeSchema.safeParse(upgradeStoredEpisode(row, LEARNERS));
    if (parsed.success) return parsed.data;
    this.#corruptRows++;
    const id = typeof row === 'object' && row !== null && 'id' in row ? String(row.id) : '?';
    this.logger.warn('skipped a corrupt episode row', { id, issue: parsed.error.issues[0]?.message ?? 'invalid' });
    return null;
  }
}
