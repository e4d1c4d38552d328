/** JitRL's panel requests (the Memory tab's transition browser): schemas only, UI-safe. */
import * as z from 'zod';
import type { LearnerActions } from '../../../core/learning/learner-actions.ts';
import { TransitionSchema } from './transition.ts';

/** At most this many transitions per page of the browser. */
export const MAX_PAGE = 1000;

export const JITRL_ACTIONS = {
  /** One page of a site's transitions, newest first; `query` filters by task, URL or action text. */
  list: {
    req: z.strictObject({ origin: z.string(), query: z.string(), limit: z.number().int().positive().max(MAX_PAGE), offset: z.number().int().nonnegative() }),
    res: z.array(TransitionSchema),
  },
  /** How many transitions the site holds, on how many page types, and when the newest was written (0: none). */
  site: {
    req: z.strictObject({ origin: z.string() }),
    res: z.strictObject({ transitions: z.number().int().nonnegative(), pages: z.number().int().nonnegative(), lastUpdated: z.number() }),
  },
  delete: { req: z.strictObject({ ids: z.array(z.string()).min(1) }), res: z.strictObject({ deleted: z.number().int() }) },
} as const satisfies LearnerActions;
