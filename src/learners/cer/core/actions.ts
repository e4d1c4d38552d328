/** CER's panel requests (the Memory tab's buffer view): schemas only, UI-safe. */
import * as z from 'zod';
import type { LearnerActions } from '../../../core/learning/learner-actions.ts';
import { ExperienceEntrySchema } from './experience.ts';

export const CER_ACTIONS = {
  /** The buffer for one site: every dynamics and skill entry. */
  list: { req: z.strictObject({ origin: z.string() }), res: z.array(ExperienceEntrySchema) },
} as const satisfies LearnerActions;
