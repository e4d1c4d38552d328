// Knowing it is done (issue 35, part 7): the finish candidate, its availability, that it carries
// across instances, and the no-oracle figures.
import { describe, expect, it } from 'vitest';
import { boundToOtherTask } from '../../src/core/page/task-binding.ts';
import { tokenize } from '../../src/core/page/tokenize.ts';
import { OFFLINE_WEIGHTS, scoreOfflineActions } from '../../src/core/policy/offline-policy.ts';
import { formatAction } from '../../src/core/page/action-grammar.ts';
import type { PageObservation } from '../../src/core/page/observation.ts';
import type { PolicyInput, StepHistoryItem } from '../../src/core/policy/policy.ts';
import { summarizeEndings } from '../../bench/ending-metrics.ts';
import type { AttemptRecord } from '../../bench/metrics.ts';

const page: PageObservation = {
  url: 'https://crew.test/invite?sent=Ada', title: 'Invite', focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [],
  scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
  nodes: [{ ref: '1', kind: 'interactive', role: 'button', name: 'Send invite', states: {}, depth: 0, inViewport: true }],
};
const input = (history: StepHistoryItem[]): PolicyInput => ({ task: 'Invite Ada', observation: page, history, sections: [], numCandidates: 5 }) as unknown as PolicyInput;
const DONE = 'send_msg_to_user("Done.")';

describe('the finish candidate', () => {
  it('is offered at its fixed weight once a step ran, never before', () => {
    expect(scoreOfflineActions(input([])).some((s) => formatAction(s.action) === DONE)).toBe(false);
    const ran = [{ action: 'click(<button "Send invite">)', url: 'https://crew.test/invite', outcome: 'ok' }] as unknown as StepHistoryItem[];
    const finish = scoreOfflineActions(input(ran)).find((s) => formatAction(s.action) === DONE);
    expect(finish?.score).toBe(OFFLINE_WEIGHTS.finish);
  });

  it('is nobody\'s particular: it carries to another instance, while a real answer does not', () => {
    const source = tokenize('Invite Ada Byron to Design');
    const current = tokenize('Invite Alan Turing to Research');
    expect(boundToOtherTask(DONE, source, current)).toBe(false);
    expect(boundToOtherTask('send_msg_to_user("Sent.")', source, current)).toBe(true);
  });
});

describe('no-oracle figures', () => {
  const rec = (over: Partial<AttemptRecord>): AttemptRecord => ({ learner: 'jitrl+cer', outcome: 'success', taught: false, ...over }) as AttemptRecord;
  it('count successful alone attempts the agent ended, and the steps after the goal', () => {
    const out = summarizeEndings([
      rec({ ending: { byAgent: true, goalAtStep: 2, stepsAfterGoal: 1 } }),
      rec({ ending: { byAgent: true, goalAtStep: 1, stepsAfterGoal: 3 } }),
      rec({ ending: { byAgent: false, goalAtStep: 2, stepsAfterGoal: 6 } }),
      rec({ outcome: 'failure', ending: { byAgent: true, goalAtStep: null, stepsAfterGoal: null } }),
      rec({ taught: true, ending: { byAgent: true, goalAtStep: 2, stepsAfterGoal: 1 } }),
    ]);
    expect(out).toEqual([{ learner: 'jitrl+cer', successes: 3, endedByAgent: 2, meanStepsAfterGoal: 2, maxStepsAfterGoal: 3 }]);
  });
});
