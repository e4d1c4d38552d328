/**
 * Where an element is in the top document's viewport: its own box, offset by
 * the position (and border) of each same-origin frame it sits in. Marks are
 * drawn in the top document, so an element inside a frame needs this.
 */
export interface ViewportRect {
  left: number;
  top: number;
  width: number;
  height: number;
  bottom: number;
}

export function viewportRect(el: Element, doc: Document): ViewportRect {
  const r = el.getBoundingClientRect();
  let left = r.left;
  let top = r.top;
  let frame = el.ownerDocument === doc ? null : (el.ownerDocument.defaultView?.frameElement ?? null);
  while (frame) {
    const fr = frame.getBoundingClientRect();
    left += fr.left + frame.clientLeft;
    top += fr.top + frame.clientTop;
    frame = frame.ownerDocument === doc ? null : (frame.ownerDocument.defaultView?.frameElement ?? null);
  }
  return { left, top, width: r.width, height: r.height, bottom: top + r.height };
}
