/**
 * One guide per task (or task template) on one site: the guide in force, how
 * it came to be (history), and the meta conversation — one message per
 * episode, capped. Pure updates; the store only saves what these return.
 */
import * as z from 'zod';
import { MAX_GUIDE_CHARS } from './meta-answer.ts';

export const GuideSourceSchema = z.enum(['meta-agent', 'person', 'reset']);
export type GuideSource = z.infer<typeof GuideSourceSchema>;

export const GuideVersionSchema = z.strictObject({
  /** The guide from this point on; null after a reset. */
  guide: z.string().max(MAX_GUIDE_CHARS).nullable(),
  source: GuideSourceSchema,
  at: z.number(),
  /** The attempt whose log produced it (meta-agent), else null. */
  afterAttempt: z.number().int().positive().nullable(),
  diagnosis: z.string().nullable(),
  /** Whether that attempt succeeded, for the history view. */
  outcome: z.string().nullable(),
});
export type GuideVersion = z.infer<typeof GuideVersionSchema>;

export const GuideRecordSchema = z.strictObject({
  /** `origin` + the task key (see guide-key.ts). */
  key: z.string().min(1),
  origin: z.string(),
  /** The task as the person last wrote it. */
  task: z.string(),
  guide: z.string().max(MAX_GUIDE_CHARS).nullable(),
  source: GuideSourceSchema.nullable(),
  updatedAt: z.number(),
  /** Attempts the meta-agent has seen at this task. */
  attempts: z.number().int().nonnegative(),
  /** Newest last, capped at MAX_HISTORY. */
  history: z.array(GuideVersionSchema),
  /** Rendered episode logs, one per attempt, newest last, capped by the conversation cap. */
  conversation: z.array(z.string()),
  /** Attempts whose logs fell off the conversation cap. */
  omitted: z.number().int().nonnegative(),
  /** Where the guide came from when it was imported (read from the stored record's envelope; never stored in the guide). */
  importedFrom: z.string().max(300).optional(),
});
export type GuideRecord = z.infer<typeof GuideRecordSchema>;

export const MAX_HISTORY = 20;

export function emptyGuideRecord(key: string, origin: string, task: string, now: number): GuideRecord {
  return { key, origin, task, guide: null, source: null, updatedAt: now, attempts: 0, history: [], conversation: [], omitted: 0 };
}

const pushHistory = (history: GuideVersion[], v: GuideVersion): GuideVersion[] => [...history, v].slice(-MAX_HISTORY);

/** Adds one attempt's log to the conversation, dropping the oldest beyond `cap`. */
export function appendEpisodeMessage(record: GuideRecord, message: string, cap: number, task: string): GuideRecord {
  const all = [...record.conversation, message];
  const keep = Math.max(1, cap);
  const dropped = Math.max(0, all.length - keep);
  return {
    ...record,
    task,
    attempts: record.attempts + 1,
    conversation: all.slice(dropped),
    omitted: record.omitted + dropped,
  };
}

/** The meta-agent's guide replaces the one in force (Meta-TTL: ρ_{k+1} replaces ρ_k). */
export function replaceGuide(
  record: GuideRecord,
  input: { guide: string; diagnosis: string; afterAttempt: number; outcome: string; now: number },
): GuideRecord {
  const guide = input.guide.slice(0, MAX_GUIDE_CHARS);
  return {
    ...record,
    guide,
    source: 'meta-agent',
    updatedAt: input.now,
    history: pushHistory(record.history, {
      guide, source: 'meta-agent', at: input.now, afterAttempt: input.afterAttempt, diagnosis: input.diagnosis || null, outcome: input.outcome,
    }),
  };
}

/** The person's own text becomes the guide in force (an empty text is a reset). */
export function editGuide(record: GuideRecord, text: string, now: number): GuideRecord {
  const guide = text.trim().slice(0, MAX_GUIDE_CHARS);
  if (!guide) return resetGuide(record, now);
  return {
    ...record,
    guide,
    source: 'person',
    updatedAt: now,
    history: pushHistory(record.history, { guide, source: 'person', at: now, afterAttempt: null, diagnosis: null, outcome: null }),
  };
}

/**
 * No guide, and a fresh meta conversation: after a reset the meta-agent
 * starts over rather than rewriting from the logs that led to the old guide.
 */
export function resetGuide(record: GuideRecord, now: number): GuideRecord {
  return {
    ...record,
    guide: null,
    source: 'reset',
    updatedAt: now,
    conversation: [],
    omitted: 0,
    history: pushHistory(record.history, { guide: null, source: 'reset', at: now, afterAttempt: null, diagnosis: null, outcome: null }),
  };
}
