/**
 * Training-Free GRPO's experiential knowledge E (§2): a per-site library of
 * short principles, each learned from a group of attempts with mixed
 * outcomes. Ids are stable (the prompt numbers them 1..n afresh each time,
 * the library never renumbers), and every entry says which group produced or
 * last changed it, and when. A rule-derived entry also carries a structured
 * hint (what succeeded and failed attempts did on one page type) that the
 * offline policy can read; model-written entries are prose only.
 */
import * as z from 'zod';
import { jaccard, tokenize } from '../../../core/page/tokenize.ts';

/** Longest experience text kept; the paper's are one sentence. */
export const MAX_EXPERIENCE_CHARS = 400;
/** Groups remembered per entry (most recent last). */
export const MAX_GROUP_REFS = 8;
/** Token Jaccard at or above which two experiences say the same thing. */
export const NEAR_DUPLICATE_SIMILARITY = 0.8;

export const ExperienceHintSchema = z.strictObject({
  /** The page type (regularized URL) the contrast was seen on. */
  pageType: z.string().min(1),
  /** The task the actions were abstracted against, with {variables}: binds them to a new task's values. */
  taskPattern: z.string(),
  /** Semantic actions every successful attempt took there and no failed one did (may hold {variables}). */
  prefer: z.array(z.string()),
  /** Semantic actions failed attempts took there and no successful one did. */
  avoid: z.array(z.string()),
});
export type ExperienceHint = z.infer<typeof ExperienceHintSchema>;

/** The group an entry came from: enough to find its attempts in the history. */
export const GroupRefSchema = z.strictObject({
  id: z.string().min(1),
  task: z.string(),
  episodeIds: z.array(z.string()),
  at: z.number(),
});
export type GroupRef = z.infer<typeof GroupRefSchema>;

export const ExperienceSourceSchema = z.enum(['model', 'rule', 'person']);
export type ExperienceSource = z.infer<typeof ExperienceSourceSchema>;

export const TfgrpoExperienceSchema = z.strictObject({
  id: z.string().min(1),
  origin: z.string().min(1),
  /** "Name: one-sentence principle", as the paper's library writes them. */
  text: z.string().min(1).max(MAX_EXPERIENCE_CHARS),
  hint: ExperienceHintSchema.nullable(),
  source: ExperienceSourceSchema,
  provenance: z.strictObject({
    createdBy: GroupRefSchema,
    /** Groups whose update changed the entry after it was created (bounded). */
    updatedBy: z.array(GroupRefSchema),
    createdAt: z.number(),
    updatedAt: z.number(),
    /** Episodes in which the entry was in the prompt. */
    inPrompt: z.number().int().nonnegative(),
    /** Of those, the episodes that then succeeded. */
    inPromptThenSucceeded: z.number().int().nonnegative(),
  }),
});
export type TfgrpoExperience = z.infer<typeof TfgrpoExperienceSchema>;

/** Short stable hash (FNV-1a, 32 bit, base 36). */
export function hashText(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}

/** A new id derived from the site and the text, unique among `taken` (a suffix breaks ties). */
export function newExperienceId(origin: string, text: string, taken: ReadonlySet<string>): string {
  const base = `x-${hashText(`${origin}\n${normalizeText(text)}`)}`;
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

export const normalizeText = (s: string): string => s.replace(/\s+/g, ' ').trim();

export function similarity(a: string, b: string): number {
  return jaccard(tokenize(a), tokenize(b));
}

export const isNearDuplicate = (a: string, b: string): boolean => similarity(a, b) >= NEAR_DUPLICATE_SIMILARITY;

/**
 * Usefulness for eviction: the Laplace-smoothed rate at which having the
 * entry in the prompt was followed by success. An entry never shown scores
 * 1/2: above one shown often without success, below a proven one.
 */
export function usefulness(e: TfgrpoExperience): number {
  return (e.provenance.inPromptThenSucceeded + 1) / (e.provenance.inPrompt + 2);
}

/** Least useful first; then the one untouched longest; then by id (deterministic). */
export function evictionOrder(a: TfgrpoExperience, b: TfgrpoExperience): number {
  return usefulness(a) - usefulness(b)
    || a.provenance.updatedAt - b.provenance.updatedAt
    || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
