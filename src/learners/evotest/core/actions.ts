/** EvoTest's panel requests (lineages in the Memory tab): schemas only, UI-safe. */
import * as z from 'zod';
import type { LearnerActions } from '../../../core/learning/learner-actions.ts';
import { LineageSchema } from './lineage.ts';

export const EVOTEST_ACTIONS = {
  /** The lineages of one site, and which evolver runs ('model' or 'offline'). */
  lineages: { req: z.strictObject({ origin: z.string() }), res: z.strictObject({ mode: z.enum(['model', 'offline']), lineages: z.array(LineageSchema) }) },
  /** Pin a configuration of a lineage (selection always returns it), or unpin with null. */
  pin: { req: z.strictObject({ key: z.string(), configurationId: z.string().nullable() }), res: LineageSchema },
  /** Drop a lineage: the next episode of that template starts again from the starting configuration. */
  reset: { req: z.strictObject({ key: z.string() }), res: z.strictObject({ deleted: z.boolean() }) },
} as const satisfies LearnerActions;

/** A pin or reset names a lineage or configuration that does not exist (any more). */
export class EvotestLineageError extends Error {
  override name = 'EvotestLineageError';
}
