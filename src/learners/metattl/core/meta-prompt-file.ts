/**
 * The file meta-training writes and the options page imports: the selected
 * strategy φ* and how it was chosen. Validated on import; a bad file is a
 * clear error and changes nothing.
 */
import * as z from 'zod';
import { MAX_STRATEGY_CHARS } from './meta-prompt.ts';

export const META_PROMPT_FORMAT = 'apprentice.metattl.meta-prompt';

export const MetaTrainingSummarySchema = z.strictObject({
  suite: z.string(),
  train: z.array(z.string()),
  val: z.array(z.string()),
  /** Evaluations (TTL sessions of K attempts) allowed and used. */
  budget: z.number().int().nonnegative(),
  evaluations: z.number().int().nonnegative(),
  attempts: z.number().int().positive(),
  selection: z.enum(['mean', 'z']),
  /** W-AUC (padded to K) of the selected strategy and of the seed, per validation task. */
  validation: z.record(z.string(), z.number()),
  seedValidation: z.record(z.string(), z.number()),
  model: z.string(),
});
export type MetaTrainingSummary = z.infer<typeof MetaTrainingSummarySchema>;

export const MetaPromptFileSchema = z.strictObject({
  format: z.literal(META_PROMPT_FORMAT),
  version: z.literal(1),
  strategy: z.string().max(MAX_STRATEGY_CHARS),
  createdAt: z.string(),
  training: MetaTrainingSummarySchema.nullable(),
});
export type MetaPromptFile = z.infer<typeof MetaPromptFileSchema>;

export type MetaPromptFileParse = { ok: true; file: MetaPromptFile } | { ok: false; error: string };

export function parseMetaPromptFile(text: string): MetaPromptFileParse {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: 'the file is not JSON' };
  }
  if (typeof value !== 'object' || value === null || (value as { format?: unknown }).format !== META_PROMPT_FORMAT) {
    return { ok: false, error: `not a meta-prompt file (expected "format": "${META_PROMPT_FORMAT}", as written by npm run meta-train)` };
  }
  const parsed = MetaPromptFileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, error: `the meta-prompt file is invalid: ${issue ? `${issue.path.join('.') || 'file'}: ${issue.message}` : 'unknown problem'}` };
  }
  return { ok: true, file: parsed.data };
}
