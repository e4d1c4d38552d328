/**
 * Deletes that can be undone (issue 31): a delete is shown at once (the item
 * leaves the list) and carried out after a grace period, unless the person
 * presses Undo. A second delete carries out the first at once; leaving the
 * view carries out what is pending. If the panel is closed before that, the
 * item is kept: a delete never happens that was not seen through.
 */
import { useEffect, useRef, useState } from 'preact/hooks';

export const UNDO_MS = 8000;

export interface PendingDelete {
  key: string;
  /** What is deleted, in words, for the notice. */
  label: string;
}

export interface UndoableDelete {
  pending: PendingDelete | null;
  /** Keys hidden from the list while their delete is pending. */
  hidden: ReadonlySet<string>;
  remove(key: string, label: string, commit: () => Promise<unknown>): void;
  undo(): void;
}

export function useUndoableDelete(onError: (err: unknown) => void, onCommitted: () => void = () => {}): UndoableDelete {
  const [pending, setPending] = useState<PendingDelete | null>(null);
  const current = useRef<{ key: string; commit: () => Promise<unknown>; timer: ReturnType<typeof setTimeout> } | null>(null);

  const flush = () => {
    const p = current.current;
    if (!p) return;
    clearTimeout(p.timer);
    current.current = null;
    setPending(null);
    p.commit().then(onCommitted, onError);
  };
  useEffect(() => () => flush(), []);

  return {
    pending,
    hidden: new Set(pending ? [pending.key] : []),
    remove(key, label, commit) {
      flush();
      current.current = { key, commit, timer: setTimeout(flush, UNDO_MS) };
      setPending({ key, label });
    },
    undo() {
      const p = current.current;
      if (!p) return;
      clearTimeout(p.timer);
      current.current = null;
      setPending(null);
    },
  };
}
