/**
 * One overlay box over the element a ref names, to show the user what the
 * agent is about to touch. The box is inert for the page (pointer-events:none,
 * aria-hidden) and carries data-apprentice-overlay so observation skips it.
 */
import type { RefRegistry } from '../observe/ref-registry.ts';
import { viewportRect } from '../dom/viewport-rect.ts';

export const OVERLAY_ATTRIBUTE = 'data-apprentice-overlay';

export function highlightRef(ref: string | null, registry: RefRegistry, doc: Document): void {
  // Only its own boxes (value ""): the other marks (labels, banners: marks/labelled-box.ts) are cleared by their owners.
  for (const old of Array.from(doc.querySelectorAll(`[${OVERLAY_ATTRIBUTE}=""]`))) old.remove();
  if (ref === null) return;
  const el = registry.elementFor(ref);
  if (!el) return;
  // Elements inside same-origin frames are offset by their frame's position.
  const { left, top, width, height } = viewportRect(el, doc);
  const box = doc.createElement('div');
  box.setAttribute(OVERLAY_ATTRIBUTE, '');
  box.setAttribute('aria-hidden', 'true');
  Object.assign(box.style, {
    position: 'fixed',
    left: `${left - 2}px`,
    top: `${top - 2}px`,
    width: `${width + 4}px`,
    height: `${height + 4}px`,
    outline: '2px solid #e8590c',
    borderRadius: '3px',
    background: 'rgba(232, 89, 12, 0.08)',
    pointerEvents: 'none',
    zIndex: '2147483647',
    boxSizing: 'border-box',
    margin: '0',
    padding: '0',
  });
  (doc.body ?? doc.documentElement).append(box);
}
