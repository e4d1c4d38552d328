// Issue 35, no teacher, end to end through the credit and the learner: a task
// found at attempt 4 (Settings, a round back home and to Settings again, then
// on to Save) must be repeated at attempt 5, though attempt 3 also took
// Settings first and failed elsewhere. Before session 12 the first step got
// −0.5 (part of a loop) and its settling read G; it was sampled again and lost.
import { describe, expect, it } from 'vitest';
import type { CandidateRecord, Episode, StepRecord } from '../../../core/episode/episode.ts';
import { JitrlLearner } from '../core/jitrl-learner.ts';
import type { StepContext } from '../../../core/learning/learner.ts';
import { assignStepRewards } from '../../../core/credit/rewards.ts';
import { InMemoryMemoryStore } from '../core/transition.ts';
import { DEFAULT_SETTINGS } from '../../../core/settings.ts';
import { DEFAULT_JITRL } from '../core/settings.ts';
import { click, pageOf, scriptedRandom, stepRecord } from './jitrl-helpers.ts';

const TASK = 'turn off the weekly newsletter';
const HOME = 'https://notes.test/';
const SETTINGS = 'click(<link "Settings">)';
const HELP = 'click(<link "Help centre">)';
const page = pageOf([{ ref: '1', role: 'link', name: 'Settings' }, { ref: '2', role: 'link', name: 'Help centre' }]);

const cand = (semantic: string, baseLogit: number): CandidateRecord => ({
  action: semantic, semantic, origin: 'model', baseLogit, adjustedLogit: baseLogit, baseProb: 0, adjustedProb: 0,
});
/** An auto-approved step on `url` with page key `key`; the chosen candidate leads the other by `margin` nats. */
const step = (index: number, url: string, key: string, semantic: string, margin: number): StepRecord => stepRecord({
  index, url, regUrl: new URL(url).pathname, pageKey: key,
  chosen: { action: semantic, semantic, decision: 'auto' },
  candidates: [cand(semantic, 0), cand('click(<link "Other">)', -margin)],
});
const episode = (id: string, status: Episode['status'], steps: StepRecord[]): Episode => ({
  id, origin: 'https://notes.test', task: TASK, startUrl: HOME, tabId: null,
  status, steps, answer: null, error: null, learners: ['jitrl'], attempt: 1, kind: 'bench', startedAt: 0, endedAt: 1,
});

async function learnFrom(learner: JitrlLearner, e: Episode): Promise<number[]> {
  const { rewards, source } = assignStepRewards({ steps: e.steps, outcome: e.status === 'success' ? 'success' : 'failure', evaluatorScores: null, settings: DEFAULT_SETTINGS.rewards, task: TASK });
  await learner.learn({ episode: e, rewards, rewardSource: source });
  return rewards;
}

describe('a success after a round trip is repeated (no teacher)', () => {
  it('settles the first step at home: r = 0.5 on the success, the unblamed failure left out', async () => {
    const store = new InMemoryMemoryStore();
    const learner = new JitrlLearner({ store, settings: () => DEFAULT_JITRL, random: scriptedRandom(0.9), clock: { now: () => 9 } });
    // Attempt 3: Settings (sure), then Help centre (sampled against the policy: blamed), ran out of steps.
    const failed = await learnFrom(learner, episode('a3', 'failure', [
      step(0, HOME, 'A', SETTINGS, 2), step(1, 'https://notes.test/settings/profile', 'B', HELP, -0.5), step(2, 'https://notes.test/help', 'C', 'click(<link "Notes">)', 2),
    ]));
    expect(failed).toEqual([0, -1, 0]);
    // Attempt 4: A → B (Settings) → A (Lumen Notes) → B (go_back) → C → D: success.
    const won = await learnFrom(learner, episode('a4', 'success', [
      step(0, HOME, 'A', SETTINGS, 2),
      step(1, 'https://notes.test/settings/profile', 'B', 'click(<link "Lumen Notes">)', 2),
      step(2, HOME, 'A', 'go_back()', 2),
      step(3, 'https://notes.test/settings/profile', 'B', 'click(<link "Notifications">)', 2),
      step(4, 'https://notes.test/settings/notifications', 'C', 'uncheck(<checkbox "Weekly newsletter">)', 2),
      step(5, 'https://notes.test/settings/notifications', 'D', 'click(<button "Save preferences">)', 2),
    ]));
    // The round B → A → B is the detour; Settings is the way (before: −0.5).
    expect(won).toEqual([0.5, -0.5, -0.5, 0.5, 0.5, 1]);

    // Attempt 5 at home: the policy prefers Help centre 0.7 to 0.3.
    const context = {
      episodeId: 'a5', stepIndex: 0, task: TASK, origin: 'https://notes.test', url: HOME, regUrl: '/',
      observation: { url: HOME, title: 'Notes', nodes: [] }, effectiveState: [],
    } as unknown as StepContext;
    const out = await learner.adjust({ context, candidates: page.propose([{ action: click('2'), logit: Math.log(0.7) }, { action: click('1'), logit: Math.log(0.3) }]), resolve: page.resolve });
    // Settings' rows here: r = 0 (attempt 3, not blamed: left out) and r = 0.5 (attempt 4): settled.
    // Its G mean would be (−0.1 + 0.44556) / 2 = 0.17: below 0.5, sampled as before.
    expect(out.candidates.find((c) => c.semantic === SETTINGS)!.settled).toBe(true);
    expect(out.candidates.find((c) => c.semantic === HELP)!.settled).toBeUndefined();
  });
});
