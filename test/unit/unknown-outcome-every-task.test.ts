/**
 * An action whose last run has an unknown outcome asks in every task, not
 * only the one it ran in, until the person decides on it again (issue 30).
 */
import { describe, expect, it } from 'vitest';
import { autonomyVerdict } from '../../src/core/agent/autonomy-stage.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import { recordedStepRecord, type Decision, type Episode, type StepRecord } from '../../src/core/episode/episode.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import { fingerprintOf } from '../../src/core/page/target-fingerprint.ts';
import { DEFAULT_SETTINGS, type Settings } from '../../src/core/settings.ts';

const ORIGIN = 'https://mail.test';
const INBOX = `${ORIGIN}/inbox`;
const DELETE = 'click(<button "Delete">)';
const del: SnapshotNode = { ref: '5', kind: 'interactive', role: 'button', name: 'Delete', states: {}, depth: 0, inViewport: true };
const observation: PageObservation = {
  url: INBOX, title: 'Inbox', nodes: [del], focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [], scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
};
const settings: Settings = { ...DEFAULT_SETTINGS, agent: { ...DEFAULT_SETTINGS.agent, askModes: { [ORIGIN]: 'unapproved-only' } } };

const done = (startedAt: number, decision: Decision, result: StepRecord['result'] = { ok: true, navigated: false }) =>
  recordedStepRecord({ index: 0, url: INBOX, regUrl: '/inbox', semantic: DELETE, decision, result, startedAt, target: fingerprintOf(del) });
const task = (id: string, startedAt: number, steps: StepRecord[]): Episode => ({
  id, origin: ORIGIN, task: 'clean up', startUrl: INBOX, tabId: null, status: 'success', steps, answer: null, error: null, learners: [], attempt: 1, kind: 'live', startedAt, endedAt: startedAt + 1,
});
const pending = (startedAt: number): StepRecord => ({
  ...done(startedAt, 'approved'), chosen: null, result: null,
  candidates: [{ action: 'click([5])', semantic: DELETE, origin: 'model', baseLogit: 0, adjustedLogit: 0, baseProb: 1, adjustedProb: 1 }],
});

async function verdictAfter(history: Episode[]) {
  const episodes = new InMemoryEpisodeStore();
  for (const e of history) await episodes.put(e);
  const now = { ...task('now', 100, [pending(100)]), status: 'awaiting_approval' as const };
  await episodes.put(now);
  return autonomyVerdict(episodes, now, observation, settings);
}

describe('an unknown outcome asks in every task', () => {
  const approvals = [task('a1', 1, [done(1, 'approved')]), task('a2', 2, [done(2, 'approved')])];

  it('approved twice, it runs; after a run elsewhere with an unknown outcome, it asks', async () => {
    expect((await verdictAfter(approvals)).run).toBe(true);
    const unknown = task('u', 3, [done(3, 'auto', { ok: false, code: 'outcome_unknown', message: 'the worker stopped' })]);
    expect(await verdictAfter([...approvals, unknown])).toEqual({
      run: false, reason: 'its last run (in another task) has an unknown outcome; it asks until you approve or reject it again',
    });
  });

  it('the person deciding on it again afterwards settles it', async () => {
    const unknown = task('u', 3, [done(3, 'auto', { ok: false, code: 'timeout', message: 'no answer' })]);
    expect((await verdictAfter([...approvals, unknown, task('a3', 4, [done(4, 'approved')])])).run).toBe(true);
  });
});
