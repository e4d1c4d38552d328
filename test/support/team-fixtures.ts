/** Rows for team-memory tests: a JitRL transition on a site. */
import type { StepRow } from '../../src/core/stores/step-rows.ts';

export const transition = (origin: string, episodeId: string, i: number, action: string, task = 'add the teapot to the cart'): StepRow => ({
  id: `${episodeId}:${i}`, origin, regUrl: '/p/{id}', effectiveState: [], stateTokens: [], task, taskTokens: task.split(' '),
  action, reward: 1, rewardSource: 'person', futureRewards: [1], episodeId, stepIndex: i, createdAt: 1000 + i, updatedAt: 2000 + i,
});
