/**
 * A hand-made meta-training world for tests: sessions whose per-attempt scores
 * come from a table keyed by strategy and task, and a proposer that answers by
 * iteration. Test-only.
 */
import type { MetaTrainConfig } from '../../bench/metattl/meta-train-checkpoint.ts';
import type { Propose } from '../../bench/metattl/meta-train-loop.ts';
import { sessionResult, type RunSession } from '../../bench/metattl/meta-train-session.ts';

export const FAKE_CONFIG: MetaTrainConfig = {
  suite: 'fake', train: ['a', 'b'], val: ['x', 'y'], budget: 14, attempts: 2, seed: 7, selection: 'mean', seedStrategy: 'SEED', model: 'test-model',
};

/** Attempt scores (K = 2) per strategy and task. W-AUC = (s1 + 2·s2) / 3. */
export const SCORES: Record<string, Record<string, [number, number]>> = {
  SEED: { a: [0, 0], b: [0, 0], x: [0, 0], y: [0, 0] }, // 0 everywhere
  S1: { a: [0, 1], b: [0, 1], x: [0, 1], y: [0, 0] }, // train 2/3, x 2/3, y 0
  S3: { a: [0, 0], b: [0, 0], x: [1, 1], y: [1, 1] }, // train 0: never passes local validation
  S4: { a: [1, 1], b: [1, 1], x: [1, 0], y: [1, 1] }, // train 1, x 1/3, y 1
};

/** Iteration 2's answer is unusable and dropped. */
export const PROPOSALS: Record<number, string | null> = { 1: 'S1', 2: null, 3: 'S3', 4: 'S4' };

export function fakeRunSession(onRun?: (label: string, strategy: string, taskId: string) => void, delayMs = 0): RunSession {
  return async ({ strategy, taskId, label }) => {
    onRun?.(label, strategy, taskId);
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    const row = SCORES[strategy]?.[taskId];
    if (!row) throw new Error(`no score for ${strategy} on ${taskId}`);
    return sessionResult(taskId, row.map((score, i) => ({ attempt: i + 1, score, log: `${strategy} on ${taskId}, attempt ${i + 1}`, guideAfter: null, notes: [] })), 2);
  };
}

export const fakePropose: Propose = async ({ iteration }) => {
  const strategy = PROPOSALS[iteration];
  return strategy ? { ok: true, proposal: { analysis: `iteration ${iteration}`, strategy }, repaired: false } : { ok: false, error: 'the JSON does not match the schema (strategy: required)' };
};
