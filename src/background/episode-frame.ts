/**
 * The border round a tab while an episode works in it (issue 31, "a border on
 * the tab while an episode runs"). Fed every episode update; tells a tab's
 * page to draw the frame when an episode there starts running or waits for
 * the person's approval, and to clear it when the episode pauses or ends, or
 * moves to another tab. Every working update draws it again (drawing is
 * idempotent): a page that has navigated since lost it, and each step sends one.
 */
import type { Episode, EpisodeStatus } from '../core/episode/episode.ts';

/** The statuses in which Apprentice is at work in the tab. */
const WORKING: ReadonlySet<EpisodeStatus> = new Set(['running', 'awaiting_approval']);

export interface EpisodeFrames {
  update(episode: Pick<Episode, 'id' | 'tabId' | 'status'>): void;
}

/** `show(tabId, on)` reaches the page; it must not throw (a tab without the content script is no error). */
export function createEpisodeFrames(show: (tabId: number, on: boolean) => Promise<void>): EpisodeFrames {
  /** The tab each working episode has framed. */
  const framed = new Map<string, number>();
  return {
    update({ id, tabId, status }) {
      const was = framed.get(id);
      const now = WORKING.has(status) && tabId !== null ? tabId : undefined;
      if (was !== undefined && was !== now) {
        framed.delete(id);
        // Another working episode may still hold that tab.
        if (![...framed.values()].includes(was)) void show(was, false);
      }
      if (now !== undefined) {
        framed.set(id, now);
        // Every working update draws again: the page may have navigated (and lost the frame) since.
        void show(now, true);
      }
    },
  };
}
