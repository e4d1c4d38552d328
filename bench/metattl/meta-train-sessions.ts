/**
 * RunTTL(φ, g) on a real suite: one benchmark run of the `metattl` learner on
 * one task for K attempts in headless Chromium, with the meta-agent governed
 * by the strategy φ and a fresh guide store, so sessions never share guides.
 */
import { MetaTtlLearner, METATTL_ID } from '../../src/learners/metattl/core/metattl-learner.ts';
import { runBench } from '../bench-runner.ts';
import type { CreateSessions } from './meta-train-run.ts';
import { sessionResult, type SessionAttempt } from './meta-train-session.ts';
import { resolveTasks } from '../suite.ts';

export const createChromiumSessions: CreateSessions = async ({ suite, attempts, seed, provider, earlyStop }) => {
  // Task ids only: the suite is started again by each session's benchmark run.
  const started = await suite.start?.();
  let taskIds: string[];
  try {
    taskIds = resolveTasks(suite, { baseUrl: started ? started.baseUrl : '' }).map((t) => t.id);
  } finally {
    await suite.stop?.();
  }
  return {
    taskIds,
    async runSession({ strategy, taskId }) {
      // The learner reports after every attempt, in order: its log and the guide it wrote.
      const adapted: { log: string | null; guide: string | null; notes: string[] }[] = [];
      const result = await runBench({
        suite, learners: ['metattl'], attempts, policy: 'openai', noise: 0, seed, memory: 'fresh', profile: 'full',
        taskFilter: '', taskIds: [taskId], provider, progress: false, stopAfterSuccess: earlyStop,
        learnerSettings: { [METATTL_ID]: { strategy } },
        onLearners: (learners) => {
          for (const l of learners) {
            if (l instanceof MetaTtlLearner) {
              l.observe((r) => adapted.push({ log: r.record?.conversation.at(-1) ?? null, guide: r.changed ? r.record?.guide ?? null : null, notes: r.notes }));
            }
          }
        },
      });
      const attemptsRun: SessionAttempt[] = result.records
        .filter((r) => r.taskId === taskId)
        .sort((a, b) => a.attempt - b.attempt)
        .map((r, i) => {
          const a = adapted[i];
          return {
            attempt: r.attempt,
            score: r.outcome === 'error' ? null : r.reward,
            // Without the learner's own log (its call failed before rendering), the record's actions stand in.
            log: a?.log ?? `ATTEMPT ${r.attempt}\n[TASK] ${r.instruction}\n${r.actions.map((x) => `[ACTION] ${x}`).join('\n')}\n[OUTCOME] ${r.outcome}`,
            guideAfter: a?.guide ?? null,
            notes: [...(a?.notes ?? []), ...(r.error ? [r.error] : [])],
          };
        });
      return sessionResult(taskId, attemptsRun, attempts);
    },
    async close() {},
  };
};
