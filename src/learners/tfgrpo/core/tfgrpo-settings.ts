/**
 * Training-Free GRPO's settings. Defaults follow the paper's web setting
 * where it gives one (group size 3, rollout temperature 0.7, critique and
 * update at 0); the caps are ours (see docs/learning.md).
 */
import * as z from 'zod';

export const TfgrpoSettingsSchema = z.strictObject({
  enabled: z.boolean().describe('Use Training-Free GRPO'),
  /** G, attempts per group. Paper (web): 3. */
  groupSize: z.number().int().min(2).max(8).describe('Attempts per group (G)'),
  /** Close a group as soon as it holds both a success and a failure (a person rarely repeats a task G times). */
  closeWhenMixed: z.boolean().describe('Close a group as soon as it holds a success and a failure'),
  /** Sampling temperature of the policy while this learner is on. Paper: 0.7 while learning. */
  rolloutTemperature: z.number().min(0).max(2).describe('Model temperature while learning (rollouts)'),
  /** Experiences kept per site; the least useful are evicted beyond it. */
  maxPerSite: z.number().int().positive().describe('Experiences kept per site'),
  /** Experiences put in one prompt (the most relevant to the task and page). */
  inPrompt: z.number().int().nonnegative().describe('Experiences put in one prompt'),
  /** Share of a site's library one update may delete (at least one entry). */
  maxDeleteFraction: z.number().min(0).max(1).describe('Largest share of a site\'s library one update may delete'),
  /** Without a model: learn page-type contrasts from the group's own actions. */
  ruleHints: z.boolean().describe('Without a model: learn page-type contrasts from the group\'s own actions'),
});
export type TfgrpoSettings = z.infer<typeof TfgrpoSettingsSchema>;

export const DEFAULT_TFGRPO: TfgrpoSettings = {
  enabled: true,
  groupSize: 3,
  closeWhenMixed: true,
  rolloutTemperature: 0.7,
  maxPerSite: 40,
  inPrompt: 12,
  maxDeleteFraction: 0.25,
  ruleHints: true,
};

/** What Training-Free GRPO does without a model, said in settings, panel and its own notes. */
export const NEEDS_MODEL =
  'Training-Free GRPO learns its experiences through a model (summaries, critique, library update). Without one it only keeps page-type contrasts read off the attempts (rule hints), and does nothing when those are switched off.';
