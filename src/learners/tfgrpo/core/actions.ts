/** Training-Free GRPO's panel requests (the Memory tab's library view): schemas only, UI-safe. */
import * as z from 'zod';
import type { LearnerActions } from '../../../core/learning/learner-actions.ts';
import { MAX_EXPERIENCE_CHARS, TfgrpoExperienceSchema } from './experience.ts';

export const TfgrpoLibraryViewSchema = z.strictObject({
  experiences: z.array(TfgrpoExperienceSchema),
  lastUpdate: z.strictObject({
    at: z.number(), task: z.string(),
    added: z.number().int(), updated: z.number().int(), deleted: z.number().int(), evicted: z.number().int(),
  }).nullable(),
  /** Said plainly when the learner cannot learn as configured (no model, rule hints off), or learns by rules only. */
  capability: z.string().nullable(),
});
export type TfgrpoLibraryView = z.infer<typeof TfgrpoLibraryViewSchema>;

const Site = z.strictObject({ origin: z.string() });

export const TFGRPO_ACTIONS = {
  /** The library for one site, its newest (undoable) update, and whether it can learn without a model. */
  library: { req: Site, res: TfgrpoLibraryViewSchema },
  /** The person rewrites one experience; false when the text is empty or too long. */
  edit: { req: z.strictObject({ origin: z.string(), id: z.string(), text: z.string().max(MAX_EXPERIENCE_CHARS * 2) }), res: z.strictObject({ ok: z.boolean() }) },
  delete: { req: z.strictObject({ origin: z.string(), ids: z.array(z.string()).min(1) }), res: z.strictObject({ deleted: z.number().int() }) },
  /** Reverts the site's newest library update. */
  undo: { req: Site, res: z.strictObject({ undone: z.boolean() }) },
} as const satisfies LearnerActions;
