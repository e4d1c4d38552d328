/**
 * Where JitRL's transitions live. The IndexedDB implementation is in
 * src/adapters/idb; an in-memory one serves tests and the linear-scan baseline.
 */
import type { Transition } from './transition.ts';

export interface SiteSummary {
  origin: string;
  transitions: number;
  pages: number;
  lastUpdated: number;
}

export interface MemoryStore {
  /** All transitions of one episode in one transaction: all or nothing. Replaces earlier rows of that episode. */
  putEpisode(episodeId: string, transitions: Transition[]): Promise<void>;
  /** Transitions on one page type of one site, newest first, at most `limit`. Backed by an index, never a scan. */
  byPage(origin: string, regUrl: string, limit?: number): Promise<Transition[]>;
  /** Browse a site's transitions, newest first; `query` filters by task, URL or action text. */
  bySite(origin: string, options?: { query?: string; limit?: number; offset?: number }): Promise<Transition[]>;
  sites(): Promise<SiteSummary[]>;
  deleteTransitions(ids: string[]): Promise<number>;
  /** Counts one miss on each transition (`stale` + 1, `staleAt` = at); returns how many exist. */
  markStale(ids: string[], at: number): Promise<number>;
  forgetSite(origin: string): Promise<number>;
  all(): Promise<Transition[]>;
  count(): Promise<number>;
}
