/**
 * Batch consolidation (the authors' code, after the group updates of a
 * batch): all operations proposed by the groups of one batch are reduced to
 * one consistent set before anything is written.
 *  - NONE is dropped.
 *  - DELETE wins over UPDATE of the same entry; several DELETEs are one.
 *  - Several UPDATEs of one entry keep the last (the newest group's view).
 *  - ADDs that say nearly the same thing are merged into one (the more
 *    detailed text; rule hints on the same page type are united).
 *  - An ADD that repeats an entry already in the library becomes an UPDATE of
 *    that entry (it keeps its id, usefulness and provenance), unless the same
 *    batch updates or deletes that entry.
 *  - Where a rule hint is involved, only what was learned on the same task
 *    template merges (`mayMerge`): a hint speaks for the templates in its
 *    entry's provenance, so a merge across templates would suggest one task's
 *    recipe on the other's ("Put X in my basket" and "Keep X for later" on
 *    one page type read as near-duplicates with opposite actions).
 * Pure and deterministic: the tests state the exact result.
 */
import { tokenize } from '../../../core/page/tokenize.ts';
import { isNearDuplicate, type ExperienceHint, type GroupRef, type TfgrpoExperience } from './experience.ts';
import { taskTemplate } from './group.ts';
import type { LibraryOperation } from './operations.ts';

type Add = Extract<LibraryOperation, { op: 'ADD' }>;
type Update = Extract<LibraryOperation, { op: 'UPDATE' }>;
type Delete = Extract<LibraryOperation, { op: 'DELETE' }>;

export interface Consolidation {
  /** DELETEs, then UPDATEs, then ADDs; each entry targeted at most once. */
  operations: LibraryOperation[];
  /** What was merged or overridden, for the report. */
  notes: string[];
}

const detail = (text: string): number => tokenize(text).length;

function unionList(a: readonly string[], b: readonly string[]): string[] {
  return [...a, ...b.filter((x) => !a.includes(x))];
}

/** Hints merge only when they speak of the same page type; otherwise the first is kept. */
export function mergeHints(a: ExperienceHint | null, b: ExperienceHint | null): ExperienceHint | null {
  if (!a || !b) return a ?? b;
  if (a.pageType !== b.pageType) return a;
  const prefer = unionList(a.prefer, b.prefer);
  return { pageType: a.pageType, taskPattern: a.taskPattern, prefer, avoid: unionList(a.avoid, b.avoid).filter((x) => !prefer.includes(x)) };
}

/**
 * Whether `add` may merge with what was learned by `groups` carrying `hint`:
 * always when neither carries a hint (prose only) or both hints have the same
 * abstract pattern (they speak for the same tasks), else only when every
 * group was on `add`'s task template (`hintAppliesTo` binds a hint to its
 * entry's templates and pattern).
 */
function mayMerge(add: Add, hint: ExperienceHint | null, groups: readonly GroupRef[]): boolean {
  if (!add.hint && !hint) return true;
  if (add.hint && hint && add.hint.taskPattern === hint.taskPattern) return true;
  const template = taskTemplate(add.group.task);
  return groups.every((g) => taskTemplate(g.task) === template);
}

export function consolidate(library: readonly TfgrpoExperience[], batch: readonly LibraryOperation[]): Consolidation {
  const notes: string[] = [];
  const deletes = new Map<string, Delete>();
  const updates = new Map<string, Update>();
  const adds: Add[] = [];

  for (const op of batch) {
    if (op.op === 'DELETE') {
      if (updates.delete(op.id)) notes.push(`${op.id}: DELETE wins over UPDATE`);
      if (!deletes.has(op.id)) deletes.set(op.id, op);
    } else if (op.op === 'UPDATE') {
      if (deletes.has(op.id)) {
        notes.push(`${op.id}: DELETE wins over UPDATE`);
      } else {
        if (updates.has(op.id)) notes.push(`${op.id}: two UPDATEs, the later one kept`);
        updates.set(op.id, op);
      }
    } else if (op.op === 'ADD') {
      const twin = adds.findIndex((a) => isNearDuplicate(a.text, op.text) && mayMerge(op, a.hint, [a.group]));
      if (twin >= 0) {
        const kept = adds[twin]!;
        const text = detail(op.text) > detail(kept.text) ? op.text : kept.text;
        adds[twin] = { ...kept, text, hint: mergeHints(kept.hint, op.hint) };
        notes.push(`two ADDs merged: "${text}"`);
      } else {
        adds.push(op);
      }
    }
  }

  // ADDs that repeat a stored entry refresh it instead of duplicating it.
  const freshAdds: Add[] = [];
  for (const add of adds) {
    const same = library.find((e) => isNearDuplicate(e.text, add.text) && mayMerge(add, e.hint, [e.provenance.createdBy, ...e.provenance.updatedBy]));
    if (!same) {
      freshAdds.push(add);
    } else if (deletes.has(same.id) || updates.has(same.id)) {
      // The batch rewrites or removes that entry; the ADD stands as the new wording.
      freshAdds.push(add);
    } else {
      const text = detail(add.text) > detail(same.text) ? add.text : same.text;
      updates.set(same.id, { op: 'UPDATE', id: same.id, text, hint: mergeHints(same.hint, add.hint), group: add.group });
      notes.push(`ADD repeats ${same.id}: it becomes an UPDATE of that entry`);
    }
  }

  return { operations: [...deletes.values(), ...updates.values(), ...freshAdds], notes };
}
