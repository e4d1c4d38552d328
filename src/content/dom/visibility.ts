/**
 * The one definition of "visible" that observation and action share.
 *
 * `isRendered`: the element takes part in layout and is not hidden by
 * `visibility`, `display` or `content-visibility` on itself or an ancestor
 * (`checkVisibility` reads the layout Chromium already has).
 * `isVisible`: rendered and with a box of non-zero area — something a person
 * can see and point at. Text is shown when its parent is rendered; a control
 * is usable when it is visible.
 */

type CheckVisibility = (options?: { visibilityProperty?: boolean; checkVisibilityCSS?: boolean }) => boolean;

export function isRendered(el: Element): boolean {
  const check = (el as Element & { checkVisibility?: CheckVisibility }).checkVisibility;
  if (typeof check === 'function') return check.call(el, { visibilityProperty: true, checkVisibilityCSS: true });
  // Engines without checkVisibility (happy-dom in unit tests): the computed style of the element.
  const view = el.ownerDocument.defaultView;
  if (view === null) return false;
  const style = view.getComputedStyle(el);
  return style.display !== 'none' && style.visibility !== 'hidden' && style.visibility !== 'collapse';
}

/** Total area of the element's boxes (all lines of an inline element). */
export function boxArea(el: Element): number {
  let area = 0;
  for (const r of el.getClientRects()) area += r.width * r.height;
  return area;
}

export function isVisible(el: Element): boolean {
  return boxArea(el) > 0 && isRendered(el);
}
