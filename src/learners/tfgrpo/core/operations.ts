/**
 * The group update (§2, "Optimization"): the model answers with a list of
 * operations against the numbered library — ADD a new experience, UPDATE or
 * DELETE one by its number, or NONE. Each operation is checked on its own:
 * common slips are repaired (lower-case names, "id": "3" or "[3]", `text` for
 * `content`), and an operation that still does not fit (an unknown number, an
 * UPDATE with nothing to say) is refused with a reason while the others go
 * ahead. Numbers are mapped back to stable ids here, so nothing downstream
 * sees the prompt's numbering.
 */
import * as z from 'zod';
import { MAX_EXPERIENCE_CHARS, normalizeText, type ExperienceHint, type GroupRef } from './experience.ts';

/** One operation as the library applies it: ids, not prompt numbers. */
export type LibraryOperation =
  | { op: 'ADD'; text: string; hint: ExperienceHint | null; group: GroupRef }
  | { op: 'UPDATE'; id: string; text: string; hint?: ExperienceHint | null; group: GroupRef }
  | { op: 'DELETE'; id: string; group: GroupRef }
  | { op: 'NONE'; group: GroupRef };

/** One operation as the model is asked to write it; the JSON Schema in the prompt is derived from this. */
export const ModelOperationSchema = z.strictObject({
  operation: z.enum(['ADD', 'UPDATE', 'DELETE', 'NONE']).describe('ADD a new experience, UPDATE or DELETE an existing one by its number, or NONE.'),
  id: z.number().int().positive().nullable().describe('The number of the experience to UPDATE or DELETE, as listed; null for ADD and NONE.'),
  content: z.string().nullable().describe('For ADD and UPDATE: the experience, "Short name: one sentence". Null otherwise.'),
});
export type ModelOperation = z.infer<typeof ModelOperationSchema>;

export const UpdateAnswerSchema = z.object({
  operations: z.array(ModelOperationSchema).describe('The changes to make; [{"operation": "NONE", "id": null, "content": null}] when the library already covers the lessons.'),
});

/** The outer shape only: items are checked one by one so a bad one does not sink the rest. */
export const UpdateAnswerEnvelopeSchema = z.object({ operations: z.array(z.unknown()) });

const OP_ALIASES: Readonly<Record<string, ModelOperation['operation']>> = {
  add: 'ADD', insert: 'ADD', create: 'ADD', new: 'ADD',
  update: 'UPDATE', modify: 'UPDATE', edit: 'UPDATE', replace: 'UPDATE',
  delete: 'DELETE', remove: 'DELETE', drop: 'DELETE',
  none: 'NONE', noop: 'NONE', keep: 'NONE',
};

/** Accepts the usual variations of one operation object before it is validated. */
export function repairOperation(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const o = raw as Record<string, unknown>;
  const opRaw = o.operation ?? o.op ?? o.action ?? o.type;
  const op = typeof opRaw === 'string' ? OP_ALIASES[opRaw.trim().toLowerCase()] ?? opRaw : opRaw;
  const idRaw = o.id ?? o.number ?? o.index ?? null;
  let id: unknown = idRaw;
  if (typeof idRaw === 'string') {
    const m = /^\s*[[(#]?\s*(\d+)\s*[\])]?\s*$/.exec(idRaw);
    id = m ? Number(m[1]) : idRaw;
  }
  const content = o.content ?? o.text ?? o.experience ?? null;
  return { operation: op, id: id ?? null, content };
}

export interface ResolvedOperations {
  operations: LibraryOperation[];
  /** Why each refused operation was refused, in answer order. */
  refused: string[];
}

const describeIssue = (e: z.ZodError): string => e.issues.slice(0, 2).map((i) => `${i.path.join('.') || 'operation'}: ${i.message}`).join('; ');

/**
 * Checks each answered operation against the library that was shown
 * (`shownIds[n - 1]` is the id behind number n) and maps numbers to ids.
 */
export function resolveOperations(items: readonly unknown[], shownIds: readonly string[], group: GroupRef): ResolvedOperations {
  const operations: LibraryOperation[] = [];
  const refused: string[] = [];
  items.forEach((item, i) => {
    const label = `operation ${i + 1}`;
    const parsed = ModelOperationSchema.safeParse(repairOperation(item));
    if (!parsed.success) {
      refused.push(`${label} refused: it is not a valid operation (${describeIssue(parsed.error)})`);
      return;
    }
    const { operation, id, content } = parsed.data;
    const text = content === null ? '' : normalizeText(content);
    if (operation === 'NONE') {
      operations.push({ op: 'NONE', group });
      return;
    }
    if ((operation === 'ADD' || operation === 'UPDATE') && text === '') {
      refused.push(`${label} refused: ${operation} without content`);
      return;
    }
    if (text.length > MAX_EXPERIENCE_CHARS) {
      refused.push(`${label} refused: the experience is ${text.length} characters long (at most ${MAX_EXPERIENCE_CHARS})`);
      return;
    }
    if (operation === 'ADD') {
      operations.push({ op: 'ADD', text, hint: null, group });
      return;
    }
    const target = id === null ? undefined : shownIds[id - 1];
    if (target === undefined) {
      refused.push(`${label} refused: ${operation} of ${id === null ? 'no number' : `number ${id}`}, which is not in the library shown (1–${shownIds.length})`);
      return;
    }
    operations.push(operation === 'UPDATE' ? { op: 'UPDATE', id: target, text, group } : { op: 'DELETE', id: target, group });
  });
  return { operations, refused };
}
