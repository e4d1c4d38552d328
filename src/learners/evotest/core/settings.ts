/** EvoTest's settings (its own schema, registered with the learner). */
import * as z from 'zod';

export const EvotestSettingsSchema = z.strictObject({
  enabled: z.boolean().describe('Use EvoTest'),
  /** c, UCB's exploration constant (the authors' code: 1). */
  exploration: z.number().min(0).max(5).describe('c, exploration constant of UCB'),
  /** Children the evolver proposes after each episode. */
  childrenPerEpisode: z.number().int().min(1).max(4).describe('Children the evolver proposes after each attempt'),
  /** Ask the configured model to evolve guidance and rules (the offline operators always run). */
  useModel: z.boolean().describe('Ask the configured model to evolve guidance and rules'),
});
export type EvotestSettings = z.infer<typeof EvotestSettingsSchema>;

export const DEFAULT_EVOTEST_SETTINGS: EvotestSettings = { enabled: false, exploration: 1, childrenPerEpisode: 2, useModel: true };

/** EvoTest's registry id: the key of its settings, evidence and plan. */
export const EVOTEST_ID = 'evotest';
