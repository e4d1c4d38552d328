/** The flat tree (shadow DOM and slots resolved): what a person sees nested in what. */

/** The parent in the flat tree: a slotted node's slot, a shadow root's host. */
export function flatParent(el: Element): Element | null {
  if (el.assignedSlot) return el.assignedSlot;
  if (el.parentElement !== null) return el.parentElement;
  const p = el.parentNode;
  return p !== null && p.nodeType === 11 ? (p as ShadowRoot).host : null;
}

/** The nearest ancestor that positions an absolutely positioned box: positioned, or transformed. */
export function containingBlock(el: Element, styleOf: (el: Element) => CSSStyleDeclaration): Element | null {
  for (let p = flatParent(el); p !== null; p = flatParent(p)) {
    const s = styleOf(p);
    if (s.position !== 'static' || (s.transform !== 'none' && s.transform !== '')) return p;
  }
  return null;
}
