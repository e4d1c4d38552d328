/**
 * The border round a tab while an episode works in it (issue 31): which tab
 * is told to draw or clear it, on each episode update.
 */
import { describe, expect, it } from 'vitest';
import { createEpisodeFrames } from '../../src/background/episode-frame.ts';
import type { EpisodeStatus } from '../../src/core/episode/episode.ts';

function frames() {
  const calls: [number, boolean][] = [];
  const f = createEpisodeFrames(async (tabId, on) => { calls.push([tabId, on]); });
  const update = (id: string, tabId: number | null, status: EpisodeStatus) => f.update({ id, tabId, status });
  return { calls, update };
}

describe('createEpisodeFrames', () => {
  it('draws while the episode runs or waits for approval, and clears once when it ends', () => {
    const { calls, update } = frames();
    update('e', 7, 'running');
    update('e', 7, 'awaiting_approval');
    update('e', 7, 'success');
    update('e', 7, 'success');
    expect(calls).toEqual([[7, true], [7, true], [7, false]]);
  });

  it('clears when the episode pauses or awaits its verdict, and draws again when it runs', () => {
    const { calls, update } = frames();
    update('e', 7, 'awaiting_approval');
    update('e', 7, 'paused');
    update('e', 7, 'running');
    update('e', 7, 'awaiting_verdict');
    expect(calls).toEqual([[7, true], [7, false], [7, true], [7, false]]);
  });

  it('follows the episode to another tab, clearing the one it left', () => {
    const { calls, update } = frames();
    update('e', 7, 'running');
    update('e', 9, 'running');
    expect(calls).toEqual([[7, true], [7, false], [9, true]]);
  });

  it('keeps a tab framed while another episode still works in it; an ended episode never framed draws nothing', () => {
    const { calls, update } = frames();
    update('a', 7, 'running');
    update('b', 7, 'awaiting_approval');
    update('a', 7, 'stopped');
    update('c', 7, 'error');
    update('d', null, 'running');
    expect(calls).toEqual([[7, true], [7, true]]);
  });
});
