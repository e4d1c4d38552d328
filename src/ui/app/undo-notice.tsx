/** The notice of a delete that can still be undone (use-undoable-delete.ts). */
import type { UndoableDelete } from './use-undoable-delete.ts';

export function UndoNotice({ deletes }: { deletes: UndoableDelete }) {
  if (!deletes.pending) return null;
  return (
    <p class="notice undo" role="status">
      Deleted {deletes.pending.label}.{' '}
      <button type="button" class="small" onClick={deletes.undo}>Undo</button>
    </p>
  );
}
