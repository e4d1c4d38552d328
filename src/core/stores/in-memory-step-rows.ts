/**
 * A StepRowStore held in plain maps: for tests, for the benchmark's baseline,
 * and wherever persistence is not wanted. Same semantics as the IndexedDB
 * store: an episode write replaces that episode's earlier rows as one unit,
 * and page reads go through a (origin, regUrl) index, newest first.
 */
import type { StepRowStore, StepRowSite } from './step-rows.ts';
import type { StepRow } from './step-rows.ts';

const pageKey = (origin: string, regUrl: string): string => `${origin}\u0000${regUrl}`;

/** Newest first: creation time, then step index, then id, so the order is total and stable. */
export function newestFirst(a: StepRow, b: StepRow): number {
  return b.createdAt - a.createdAt || b.stepIndex - a.stepIndex || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

export class InMemoryStepRowStore implements StepRowStore {
  readonly #byId = new Map<string, StepRow>();
  readonly #byEpisode = new Map<string, Set<string>>();
  readonly #byPage = new Map<string, Set<string>>();

  async putEpisode(episodeId: string, transitions: StepRow[]): Promise<void> {
    for (const t of transitions) {
      if (t.episodeId !== episodeId) throw new Error(`step row ${t.id} belongs to episode ${t.episodeId}, not ${episodeId}`);
    }
    for (const id of [...(this.#byEpisode.get(episodeId) ?? [])]) this.#remove(id);
    for (const t of transitions) this.#insert(structuredClone(t));
  }

  async byPage(origin: string, regUrl: string, limit = Number.POSITIVE_INFINITY): Promise<StepRow[]> {
    const ids = this.#byPage.get(pageKey(origin, regUrl));
    if (!ids) return [];
    return this.#rows(ids).sort(newestFirst).slice(0, limit).map((t) => structuredClone(t));
  }

  async bySite(origin: string, options: { query?: string; limit?: number; offset?: number } = {}): Promise<StepRow[]> {
    const query = options.query?.trim().toLowerCase() ?? '';
    const offset = options.offset ?? 0;
    const rows = [...this.#byId.values()]
      .filter((t) => t.origin === origin)
      .filter((t) => query === '' || [t.task, t.regUrl, t.action].some((s) => s.toLowerCase().includes(query)))
      .sort(newestFirst);
    return rows.slice(offset, options.limit === undefined ? undefined : offset + options.limit).map((t) => structuredClone(t));
  }

  async sites(): Promise<StepRowSite[]> {
    const summaries = new Map<string, { rows: number; pages: Set<string>; lastUpdated: number }>();
    for (const t of this.#byId.values()) {
      const s = summaries.get(t.origin) ?? { rows: 0, pages: new Set<string>(), lastUpdated: 0 };
      s.rows++;
      s.pages.add(t.regUrl);
      s.lastUpdated = Math.max(s.lastUpdated, t.updatedAt);
      summaries.set(t.origin, s);
    }
    return [...summaries]
      .map(([origin, s]) => ({ origin, rows: s.rows, pages: s.pages.size, lastUpdated: s.lastUpdated }))
      .sort((a, b) => b.lastUpdated - a.lastUpdated || a.origin.localeCompare(b.origin));
  }

  async deleteRows(ids: string[]): Promise<number> {
    let removed = 0;
    for (const id of new Set(ids)) if (this.#remove(id)) removed++;
    return removed;
  }

  async markStale(ids: string[], at: number): Promise<number> {
    let marked = 0;
    for (const id of new Set(ids)) {
      const t = this.#byId.get(id);
      if (!t) continue;
      t.stale = (t.stale ?? 0) + 1;
      t.staleAt = at;
      marked++;
    }
    return marked;
  }

  async forgetSite(origin: string): Promise<number> {
    const ids = [...this.#byId.values()].filter((t) => t.origin === origin).map((t) => t.id);
    return this.deleteRows(ids);
  }

  async all(): Promise<StepRow[]> {
    return [...this.#byId.values()].map((t) => structuredClone(t));
  }

  async count(): Promise<number> {
    return this.#byId.size;
  }

  /** Stored rows (not copies): callers clone what they hand out. */
  #rows(ids: Iterable<string>): StepRow[] {
    const rows: StepRow[] = [];
    for (const id of ids) {
      const t = this.#byId.get(id);
      if (t) rows.push(t);
    }
    return rows;
  }

  #insert(t: StepRow): void {
    this.#remove(t.id);
    this.#byId.set(t.id, t);
    const episode = this.#byEpisode.get(t.episodeId) ?? new Set<string>();
    episode.add(t.id);
    this.#byEpisode.set(t.episodeId, episode);
    const key = pageKey(t.origin, t.regUrl);
    const page = this.#byPage.get(key) ?? new Set<string>();
    page.add(t.id);
    this.#byPage.set(key, page);
  }

  #remove(id: string): boolean {
    const t = this.#byId.get(id);
    if (!t) return false;
    this.#byId.delete(id);
    const episode = this.#byEpisode.get(t.episodeId);
    episode?.delete(id);
    if (episode?.size === 0) this.#byEpisode.delete(t.episodeId);
    const key = pageKey(t.origin, t.regUrl);
    const page = this.#byPage.get(key);
    page?.delete(id);
    if (page?.size === 0) this.#byPage.delete(key);
    return true;
  }
}
