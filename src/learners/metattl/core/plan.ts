/** Meta-TTL's id, what it says without a model, and its episode plan. */
import * as z from 'zod';

export const METATTL_ID = 'metattl';
export const NEEDS_MODEL = 'Meta-TTL needs a model: its meta-agent rewrites the guide after each attempt. With the offline policy it changes nothing.';

/** The episode's plan: the guide in force when it started (null = none). */
export const MetaTtlPlanSchema = z.strictObject({ key: z.string(), guide: z.string().nullable() });
export type MetaTtlPlan = z.infer<typeof MetaTtlPlanSchema>;
