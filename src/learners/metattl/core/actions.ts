/** Meta-TTL's panel requests (the guide in force, shown, edited and reset in the Run tab): schemas only, UI-safe. */
import * as z from 'zod';
import type { LearnerActions } from '../../../core/learning/learner-actions.ts';
import { GuideRecordSchema } from './guide-record.ts';
import { MAX_GUIDE_CHARS } from './meta-answer.ts';

const Guide = { origin: z.string(), task: z.string().min(1) };

export const METATTL_ACTIONS = {
  guide: { req: z.strictObject(Guide), res: z.strictObject({ record: GuideRecordSchema.nullable(), inactiveReason: z.string().nullable() }) },
  editGuide: { req: z.strictObject({ ...Guide, text: z.string().max(MAX_GUIDE_CHARS) }), res: z.strictObject({ record: GuideRecordSchema }) },
  resetGuide: { req: z.strictObject(Guide), res: z.strictObject({ record: GuideRecordSchema.nullable() }) },
} as const satisfies LearnerActions;
