/**
 * Applying a consolidated update to one site's library, with the safeguards a
 * person needs from a model that edits its own memory:
 *  - one update may delete at most a fraction of the library (the least
 *    useful go first; the rest are refused and reported);
 *  - a size cap, enforced by evicting the least useful entries that were not
 *    just added (then, if still over, the newest additions are dropped);
 *  - a revision holding the library as it was, so the person can undo the
 *    update.
 * Pure: the caller stores the new library and the revision.
 */
import * as z from 'zod';
import {
  evictionOrder, GroupRefSchema, MAX_GROUP_REFS, newExperienceId, TfgrpoExperienceSchema,
  type GroupRef, type TfgrpoExperience,
} from './experience.ts';
import type { LibraryOperation } from './operations.ts';

export interface LibraryLimits {
  /** Entries kept per site. */
  maxSize: number;
  /** Share of the library one update may delete (0..1); at least one entry may always go. */
  maxDeleteFraction: number;
}

export const LibraryRevisionSchema = z.strictObject({
  id: z.string().min(1),
  origin: z.string().min(1),
  group: GroupRefSchema,
  at: z.number(),
  /** The site's library before the update, for undo. */
  before: z.array(TfgrpoExperienceSchema),
  added: z.array(z.string()),
  updated: z.array(z.string()),
  deleted: z.array(z.string()),
  evicted: z.array(z.string()),
});
export type LibraryRevision = z.infer<typeof LibraryRevisionSchema>;

export interface LibraryUpdate {
  library: TfgrpoExperience[];
  added: string[];
  updated: string[];
  deleted: string[];
  evicted: string[];
  refused: string[];
  /** Null when nothing changed. */
  revision: LibraryRevision | null;
}

export const deleteAllowance = (size: number, fraction: number): number =>
  size === 0 ? 0 : Math.max(1, Math.floor(size * fraction));

function touch(e: TfgrpoExperience, group: GroupRef, now: number): TfgrpoExperience['provenance'] {
  const updatedBy = [...e.provenance.updatedBy.filter((g) => g.id !== group.id), group].slice(-MAX_GROUP_REFS);
  return { ...e.provenance, updatedBy, updatedAt: now };
}

/**
 * Applies `operations` (already consolidated: each id at most once) to the
 * site's `library`. Entries keep their order; additions go to the end.
 */
export function applyOperations(
  origin: string,
  library: readonly TfgrpoExperience[],
  operations: readonly LibraryOperation[],
  limits: LibraryLimits,
  context: { group: GroupRef; now: number; source: 'model' | 'rule' },
): LibraryUpdate {
  const { group, now } = context;
  const refused: string[] = [];
  const byId = new Map(library.map((e) => [e.id, e]));

  // Deletions: capped; the least useful requested ones go first.
  const requested = operations.flatMap((op) => (op.op === 'DELETE' ? [op.id] : []));
  const unknown = requested.filter((id) => !byId.has(id));
  for (const id of unknown) refused.push(`DELETE of ${id} refused: no such entry`);
  const allowance = deleteAllowance(library.length, limits.maxDeleteFraction);
  const deletable = requested.filter((id) => byId.has(id)).map((id) => byId.get(id)!).sort(evictionOrder);
  const deleted = deletable.slice(0, allowance).map((e) => e.id);
  for (const e of deletable.slice(allowance)) {
    refused.push(`DELETE of ${e.id} refused: one update may delete at most ${allowance} of ${library.length} entries`);
  }
  const gone = new Set(deleted);

  const updated: string[] = [];
  const next: TfgrpoExperience[] = [];
  for (const e of library) {
    if (gone.has(e.id)) continue;
    const op = operations.find((o): o is Extract<LibraryOperation, { op: 'UPDATE' }> => o.op === 'UPDATE' && o.id === e.id);
    if (!op || (op.text === e.text && (op.hint === undefined || JSON.stringify(op.hint) === JSON.stringify(e.hint)))) {
      next.push(e);
      continue;
    }
    next.push({ ...e, text: op.text, hint: op.hint === undefined ? e.hint : op.hint, provenance: touch(e, op.group, now) });
    updated.push(e.id);
  }
  for (const op of operations) {
    if (op.op === 'UPDATE' && !byId.has(op.id)) refused.push(`UPDATE of ${op.id} refused: no such entry`);
  }

  const taken = new Set(library.map((e) => e.id));
  const added: string[] = [];
  for (const op of operations) {
    if (op.op !== 'ADD') continue;
    const id = newExperienceId(origin, op.text, taken);
    taken.add(id);
    next.push({
      id,
      origin,
      text: op.text,
      hint: op.hint,
      source: context.source,
      provenance: { createdBy: op.group, updatedBy: [], createdAt: now, updatedAt: now, inPrompt: 0, inPromptThenSucceeded: 0 },
    });
    added.push(id);
  }

  // The size cap: evict old entries first, then drop the newest additions.
  const evicted: string[] = [];
  const overflow = next.length - limits.maxSize;
  if (overflow > 0) {
    const fresh = new Set(added);
    const old = next.filter((e) => !fresh.has(e.id)).sort(evictionOrder);
    const victims = [...old, ...next.filter((e) => fresh.has(e.id)).reverse()].slice(0, overflow);
    for (const v of victims) {
      if (fresh.has(v.id)) {
        refused.push(`ADD of "${v.text}" dropped: the library is full (${limits.maxSize})`);
        added.splice(added.indexOf(v.id), 1);
      } else {
        evicted.push(v.id);
      }
    }
    const out = new Set(victims.map((v) => v.id));
    for (let i = next.length - 1; i >= 0; i--) if (out.has(next[i]!.id)) next.splice(i, 1);
  }

  const changed = added.length + updated.length + deleted.length + evicted.length > 0;
  const revision: LibraryRevision | null = changed
    ? { id: `r-${group.id}-${now}`, origin, group, at: now, before: library.map((e) => structuredClone(e)), added, updated, deleted, evicted }
    : null;
  return { library: next, added, updated, deleted, evicted, refused, revision };
}
