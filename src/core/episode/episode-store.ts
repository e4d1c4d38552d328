/**
 * Where episodes (their step records, and so their checkpoints) live. The
 * agent loop calls put() after every step, so the service worker can be killed
 * between any two steps and resume from the stored record.
 *
 * The IndexedDB implementation is src/adapters/idb/idb-episode-store.ts; the
 * in-memory one below serves tests, the benchmark and the Node demo.
 */
import type { Episode, EpisodeStatus } from './episode.ts';

export interface EpisodeListOptions {
  /** null or absent: every site. */
  origin?: string | null;
  /** Exact task text; combined with `origin` it is an index lookup. */
  task?: string;
  limit: number;
}

export interface EpisodeStore {
  /** Insert or replace; cheap enough to call after every step. */
  put(episode: Episode): Promise<void>;
  get(id: string): Promise<Episode | null>;
  /** Newest first (by startedAt). */
  list(options: EpisodeListOptions): Promise<Episode[]>;
  /** Episodes that had not ended (running, paused or waiting on the person): candidates to resume. */
  unfinished(): Promise<Episode[]>;
  delete(id: string): Promise<void>;
  /** Deletes every episode of one origin; returns how many. */
  forgetSite(origin: string): Promise<number>;
  /** Oldest first (by startedAt). */
  all(): Promise<Episode[]>;
}

export const UNFINISHED_STATUSES: readonly EpisodeStatus[] = ['running', 'paused', 'awaiting_approval', 'awaiting_verdict'];

export function isUnfinished(status: EpisodeStatus): boolean {
  return UNFINISHED_STATUSES.includes(status);
}

const newestFirst = (a: Episode, b: Episode): number => b.startedAt - a.startedAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * Keeps structured clones, as IndexedDB does, so a caller mutating an episode
 * after put() (the loop does, step by step) never changes the stored copy.
 */
export class InMemoryEpisodeStore implements EpisodeStore {
  readonly #episodes = new Map<string, Episode>();

  async put(episode: Episode): Promise<void> {
    this.#episodes.set(episode.id, structuredClone(episode));
  }

  async get(id: string): Promise<Episode | null> {
    const episode = this.#episodes.get(id);
    return episode ? structuredClone(episode) : null;
  }

  async list(options: EpisodeListOptions): Promise<Episode[]> {
    if (options.limit <= 0) return [];
    const origin = options.origin ?? null;
    return [...this.#episodes.values()]
      .filter((e) => (origin === null || e.origin === origin) && (options.task === undefined || e.task === options.task))
      .sort(newestFirst)
      .slice(0, options.limit)
      .map((e) => structuredClone(e));
  }

  async unfinished(): Promise<Episode[]> {
    return [...this.#episodes.values()].filter((e) => isUnfinished(e.status)).sort(newestFirst).map((e) => structuredClone(e));
  }

  async delete(id: string): Promise<void> {
    this.#episodes.delete(id);
  }

  async forgetSite(origin: string): Promise<number> {
    let n = 0;
    for (const [id, e] of this.#episodes) if (e.origin === origin) { this.#episodes.delete(id); n++; }
    return n;
  }

  async all(): Promise<Episode[]> {
    return [...this.#episodes.values()].sort((a, b) => newestFirst(b, a)).map((e) => structuredClone(e));
  }
}
