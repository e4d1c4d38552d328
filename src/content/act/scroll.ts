/**
 * Scroll: the nearest scrollable box around the target, else the page.
 */
import type { Run } from './act-context.ts';

function isScrollable(el: Element): boolean {
  const view = el.ownerDocument.defaultView;
  if (!view) return false;
  const style = view.getComputedStyle(el);
  const canY = /(auto|scroll|overlay)/.test(style.overflowY) && el.scrollHeight > el.clientHeight;
  const canX = /(auto|scroll|overlay)/.test(style.overflowX) && el.scrollWidth > el.clientWidth;
  return canY || canX;
}

export function scrollBy(target: Element | null, dx: number, dy: number, run: Run): string | undefined {
  let box: Element | null = target;
  while (box && !isScrollable(box)) box = box.parentElement;
  if (box && box !== box.ownerDocument.documentElement && box !== box.ownerDocument.body) {
    const before = [box.scrollLeft, box.scrollTop];
    box.scrollBy({ left: dx, top: dy, behavior: 'instant' });
    if (box.scrollLeft === before[0] && box.scrollTop === before[1]) return 'the element is already scrolled to its end';
    return undefined;
  }
  const view = target?.ownerDocument.defaultView ?? run.win;
  const before = [view.scrollX, view.scrollY];
  view.scrollBy({ left: dx, top: dy, behavior: 'instant' });
  if (view.scrollX === before[0] && view.scrollY === before[1]) return 'the page did not move (already at its end?)';
  return target && !isScrollable(target) ? 'the element does not scroll; the page scrolled instead' : undefined;
}
