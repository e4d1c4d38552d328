/**
 * CER's experience entries (§3.1): environment dynamics (what a page is and
 * what it is for) and skills (abstract step-by-step workflows with
 * {variables} and example actions in semantic form). Every entry carries its
 * provenance so the buffer can merge, rank and evict by usefulness.
 */
import * as z from 'zod';

export const ExperienceSourceSchema = z.enum(['live', 'demonstration', 'imported', 'bench']);
export type ExperienceSource = z.infer<typeof ExperienceSourceSchema>;

export const ProvenanceSchema = z.strictObject({
  /** Episodes this entry was distilled from (most recent last, bounded). */
  episodeIds: z.array(z.string()),
  createdAt: z.number(),
  updatedAt: z.number(),
  /** Episodes in which the entry was replayed in the prompt. */
  retrieved: z.number().int().nonnegative(),
  /** Of those, the episodes that then succeeded. */
  retrievedThenSucceeded: z.number().int().nonnegative(),
  /** Where the first trajectory came from. */
  source: ExperienceSourceSchema,
});
export type Provenance = z.infer<typeof ProvenanceSchema>;

export const DynamicsEntrySchema = z.strictObject({
  id: z.string().min(1),
  origin: z.string().min(1),
  kind: z.literal('dynamics'),
  pageName: z.string().min(1),
  description: z.string(),
  usages: z.array(z.string()),
  /** The page type, as the URL regularization (core/page/regularize-url.ts) writes it. */
  regUrl: z.string().min(1),
  /** One concrete URL of that page type, to navigate to directly. */
  exampleUrl: z.string(),
  provenance: ProvenanceSchema,
});
export type DynamicsEntry = z.infer<typeof DynamicsEntrySchema>;

export const SkillStepSchema = z.strictObject({
  text: z.string().min(1),
  /** Semantic actions, possibly holding {variables}: `fill(<searchbox "Search">, "{query}")`. */
  exampleActions: z.array(z.string()),
  /**
   * The page type (regularized URL) the step was taken on, when known (the
   * offline distiller records it; a model's skills and older entries lack it).
   * Its example is suggested as an action only on a page of that type.
   */
  regUrl: z.string().min(1).optional(),
});
export type SkillStep = z.infer<typeof SkillStepSchema>;

export const SkillEntrySchema = z.strictObject({
  id: z.string().min(1),
  origin: z.string().min(1),
  kind: z.literal('skill'),
  /** Abstract name, e.g. `Search for {query} and add it to the cart`. */
  name: z.string().min(1),
  /** Variable names used in the name and steps, without braces. */
  variables: z.array(z.string()),
  steps: z.array(SkillStepSchema).min(1),
  provenance: ProvenanceSchema,
});
export type SkillEntry = z.infer<typeof SkillEntrySchema>;

export const ExperienceEntrySchema = z.discriminatedUnion('kind', [DynamicsEntrySchema, SkillEntrySchema]);
export type ExperienceEntry = z.infer<typeof ExperienceEntrySchema>;
export type ExperienceKind = ExperienceEntry['kind'];


/** Short stable hash (FNV-1a, 32 bit, base 36) for deterministic entry ids. */
export function stableHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}

/** Ids are derived from what identifies an entry, so re-distilling the same page or skill yields the same id. */
export function dynamicsId(origin: string, regUrl: string): string {
  return `d-${stableHash(`${origin}\n${regUrl}`)}`;
}

export function skillId(origin: string, name: string): string {
  return `s-${stableHash(`${origin}\n${name.toLowerCase().replace(/\s+/g, ' ').trim()}`)}`;
}
