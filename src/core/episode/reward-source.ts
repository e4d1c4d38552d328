/** Where a step's reward came from; stored on every remembered step and trajectory step. */
import * as z from 'zod';

export const RewardSourceSchema = z.enum([
  'person', // approve / reject / success / failure from the user
  'evaluator', // the model evaluator's per-step score (−3..+3), after the episode
  'combined', // both, combined by the documented rule (see core/credit/rewards.ts)
  'outcome', // the benchmark's or task's own success signal
]);
export type RewardSource = z.infer<typeof RewardSourceSchema>;
