/**
 * A store of the `stepRows` kind (step-rows.ts) in IndexedDB, on the object
 * store of its declared name (`transitions`, the name it always had, so
 * stored rows load as they are). It names no learner: the row schema is the
 * kind's, and the learner that declares the store gives the rows their meaning. Retrieval is a bounded range of the
 * [origin, regUrl, createdAt] index walked newest first, so its cost depends
 * on the rows of one page type, not on the size of the memory.
 *
 * Writes are not re-validated (they come from typed core code); every row read
 * back is, because the database outlives the code that wrote it: rows that do
 * not parse are skipped, counted and logged, never thrown.
 */
import { STRICT, allOrNothing, isQuotaError, writing } from './durable-writes.ts';
import type { IDBPIndex } from 'idb';
import type { StepRowStore, StepRowSite } from '../../core/stores/step-rows.ts';
import { StepRowSchema, type StepRow } from '../../core/stores/step-rows.ts';
import { silentLogger, type Logger } from '../../core/ports.ts';
import { openApprenticeDb, type ApprenticeDb, type ApprenticeDbSchema, type OpenApprenticeDbOptions } from './open-database.ts';

export class EpisodeWriteError extends Error {
  override name = 'EpisodeWriteError';
}

/** Key components that sort above every number and string (arrays sort last in IndexedDB). */
const AFTER_ALL: never[] = [];
const DEFAULT_SITE_LIMIT = 100;

/** The object stores that hold step rows (keyPath id; indexes byPage, byOrigin, byEpisode: open-database.ts). */
export type StepRowStoreName = 'transitions';
export const STEP_ROW_STORES: readonly StepRowStoreName[] = ['transitions'];

export class IdbStepRowStore implements StepRowStore {
  #corruptRows = 0;

  constructor(
    readonly db: ApprenticeDb,
    private readonly logger: Logger = silentLogger,
    readonly name: StepRowStoreName = 'transitions',
  ) {}

  static async open(options: OpenApprenticeDbOptions & { logger?: Logger } = {}): Promise<IdbStepRowStore> {
    return new IdbStepRowStore(await openApprenticeDb(options), options.logger ?? silentLogger);
  }

  /** Rows skipped on read because they failed validation, since this store was created. */
  get corruptRowsSkipped(): number {
    return this.#corruptRows;
  }

  close(): void {
    this.db.close();
  }

  async putEpisode(episodeId: string, rows: StepRow[]): Promise<void> {
    const ids = new Set<string>();
    for (const t of rows) {
      if (t.episodeId !== episodeId) throw new EpisodeWriteError(`step row ${t.id} belongs to episode ${t.episodeId}, not ${episodeId}`);
      if (ids.has(t.id)) throw new EpisodeWriteError(`duplicate step row id ${t.id}`);
      ids.add(t.id);
    }
    const tx = this.db.transaction(this.name, 'readwrite', STRICT);
    // The first failure aborts the transaction, which rolls back the deletes as well as the puts.
    try {
      await allOrNothing(tx, async (push) => {
        const earlier = await tx.store.index('byEpisode').getAllKeys(episodeId);
        for (const key of earlier) if (!ids.has(key)) push(tx.store.delete(key));
        for (const t of rows) push(tx.store.put(t));
      });
    } catch (error) {
      if (isQuotaError(error)) await writing('what this episode taught', () => Promise.reject(error));
      throw new EpisodeWriteError(`episode ${episodeId} was not written: ${describe(error)}`, { cause: error });
    }
  }

  async byPage(origin: string, regUrl: string, maxRows = Number.POSITIVE_INFINITY): Promise<StepRow[]> {
    const limit = Math.floor(maxRows);
    if (!(limit > 0)) return [];
    const upper = [origin, regUrl, AFTER_ALL];
    const range = IDBKeyRange.bound([origin, regUrl, -Infinity], upper);
    const index = this.db.transaction(this.name).store.index('byPage');
    // One getAll is far cheaper than a cursor step per row in Chromium. With a
    // limit, a key cursor skips to the limit-th newest key and the getAll starts there.
    let from = range;
    if (Number.isFinite(limit) && (await index.count(range)) > limit) {
      const newest = await index.openKeyCursor(range, 'prev');
      const edge = limit > 1 ? await newest?.advance(limit - 1) : newest; // advance(0) is a TypeError
      if (edge) from = IDBKeyRange.bound(edge.key, upper);
    }
    const rows = (await index.getAll(from)).reverse();
    const page = this.#parseAll(rows);
    // Corrupt rows inside the window leave it short: walk on with a cursor instead.
    if (page.length < limit && from !== range && page.length < rows.length) {
      this.#corruptRows -= rows.length - page.length; // counted again by the walk
      return this.#readNewestFirst(index, range, limit, () => true);
    }
    return page.slice(0, limit);
  }

  async bySite(origin: string, options: { query?: string; limit?: number; offset?: number } = {}): Promise<StepRow[]> {
    const limit = options.limit ?? DEFAULT_SITE_LIMIT;
    let toSkip = Math.max(0, options.offset ?? 0);
    if (limit <= 0) return [];
    const needle = (options.query ?? '').trim().toLowerCase();
    const matches = (t: StepRow): boolean =>
      needle === '' || [t.task, t.regUrl, t.action].some((text) => text.toLowerCase().includes(needle));
    const range = IDBKeyRange.bound([origin, -Infinity], [origin, AFTER_ALL]);
    const index = this.db.transaction(this.name).store.index('byOrigin');
    return this.#readNewestFirst(index, range, limit, (t) => {
      if (!matches(t)) return false;
      if (toSkip > 0) { toSkip--; return false; }
      return true;
    });
  }

  async #readNewestFirst(
    index: IDBPIndex<ApprenticeDbSchema, [StepRowStoreName], StepRowStoreName, 'byPage' | 'byOrigin', 'readonly'>,
    range: IDBKeyRange,
    limit: number,
    keep: (t: StepRow) => boolean,
  ): Promise<StepRow[]> {
    const out: StepRow[] = [];
    let cursor = await index.openCursor(range, 'prev');
    while (cursor && out.length < limit) {
      const t = this.#parse(cursor.value);
      if (t && keep(t)) out.push(t);
      cursor = await cursor.continue();
    }
    return out;
  }

  /**
   * Walks the byPage index by key only, jumping from one page type to the next,
   * so the cost grows with the number of page types, not of rows.
   * `lastUpdated` is the newest row's `updatedAt`.
   */
  async sites(): Promise<StepRowSite[]> {
    const tx = this.db.transaction(this.name);
    const byPage = tx.store.index('byPage');
    const byOrigin = tx.store.index('byOrigin');
    const summaries: StepRowSite[] = [];
    let cursor = await byPage.openKeyCursor();
    while (cursor) {
      const [origin, regUrl] = cursor.key;
      let summary = summaries.at(-1);
      if (summary?.origin !== origin) {
        const newest = await byOrigin.openCursor(IDBKeyRange.bound([origin, -Infinity], [origin, AFTER_ALL]), 'prev');
        const lastUpdated = newest && typeof newest.value?.updatedAt === 'number' ? newest.value.updatedAt : 0;
        summary = { origin, rows: 0, pages: 0, lastUpdated };
        summaries.push(summary);
      }
      summary.pages++;
      summary.rows += await byPage.count(IDBKeyRange.bound([origin, regUrl, -Infinity], [origin, regUrl, AFTER_ALL]));
      cursor = await cursor.continue([origin, regUrl, AFTER_ALL] as unknown as [string, string, number]);
    }
    return summaries;
  }

  async deleteRows(ids: string[]): Promise<number> {
    const tx = this.db.transaction(this.name, 'readwrite');
    let deleted = 0;
    for (const id of new Set(ids)) {
      if ((await tx.store.count(id)) > 0) {
        await tx.store.delete(id);
        deleted++;
      }
    }
    await tx.done;
    return deleted;
  }

  async markStale(ids: string[], at: number): Promise<number> {
    const tx = this.db.transaction(this.name, 'readwrite');
    let marked = 0;
    for (const id of new Set(ids)) {
      const row = (await tx.store.get(id)) as StepRow | undefined;
      if (!row) continue;
      await tx.store.put({ ...row, stale: (row.stale ?? 0) + 1, staleAt: at });
      marked++;
    }
    await tx.done;
    return marked;
  }

  async forgetSite(origin: string): Promise<number> {
    const tx = this.db.transaction(this.name, 'readwrite');
    const keys = await tx.store.index('byOrigin').getAllKeys(IDBKeyRange.bound([origin, -Infinity], [origin, AFTER_ALL]));
    await Promise.all(keys.map((key) => tx.store.delete(key)));
    await tx.done;
    return keys.length;
  }

  /** Every valid row, by origin then oldest first. */
  async all(): Promise<StepRow[]> {
    return this.#parseAll(await this.db.getAllFromIndex(this.name, 'byOrigin'));
  }

  /** Rows stored, including any that would fail validation. */
  async count(): Promise<number> {
    return this.db.count(this.name);
  }

  #parseAll(rows: unknown[]): StepRow[] {
    const out: StepRow[] = [];
    for (const row of rows) {
      const t = this.#parse(row);
      if (t) out.push(t);
    }
    return out;
  }

  #parse(row: unknown): StepRow | null {
    const parsed = StepRowSchema.safeParse(row);
    if (parsed.success) return parsed.data;
    this.#corruptRows++;
    const id = typeof row === 'object' && row !== null && 'id' in row ? String(row.id) : '?';
    this.logger.warn('skipped a corrupt step row', { id, issue: parsed.error.issues[0]?.message ?? 'invalid' });
    return null;
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  if (typeof DOMException !== 'undefined' && error instanceof DOMException) return `${error.name}: ${error.message}`;
  return String(error);
}
