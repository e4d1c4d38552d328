/**
 * The Run tab's keys (A approve, R reject, S show me, P pick, D task is done, Escape cancels Show me): active
 * only while nothing editable has focus and no modifier is held, so typing a
 * task, an answer or an edit never triggers them.
 */
import { useEffect } from 'preact/hooks';

/** Whether a key press may act as a panel key: no modifier, not typed into a field. */
export function isPanelKey(e: KeyboardEvent): boolean {
  if (e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return false;
  const target = e.target as (HTMLElement | null);
  if (target === null || typeof target.closest !== 'function') return true;
  return target.closest('input, textarea, select, [contenteditable="true"]') === null;
}

/** Calls `handlers[key]` (lower-case letter) on a panel key, while `active`. */
export function usePanelKeys(handlers: Readonly<Record<string, () => void>>, active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const onKey = (e: KeyboardEvent) => {
      const handler = handlers[e.key.toLowerCase()];
      if (!handler || !isPanelKey(e)) return;
      e.preventDefault();
      handler();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  });
}
