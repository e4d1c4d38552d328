/**
 * The one definition of "focused" that observation and action share: the
 * deepest active element, through open shadow roots and same-origin frames.
 * The body or the root element counts as "nothing focused".
 */
const MAX_DEPTH = 32;

export function deepActiveElement(doc: Document): Element | null {
  let active: Element | null = doc.activeElement;
  for (let i = 0; active !== null && i < MAX_DEPTH; i++) {
    const inShadow: Element | null = active.shadowRoot?.activeElement ?? null;
    if (inShadow !== null) {
      active = inShadow;
      continue;
    }
    if (active.localName === 'iframe' || active.localName === 'frame') {
      let inner: Document | null = null;
      try {
        inner = (active as HTMLIFrameElement).contentDocument;
      } catch {
        inner = null;
      }
      const next = inner?.activeElement ?? null;
      if (next !== null && next !== inner?.body && next !== inner?.documentElement) {
        active = next;
        continue;
      }
    }
    break;
  }
  if (active === null || active === doc.body || active === doc.documentElement) return null;
  return active;
}

/** Whether `el` is the element that has focus now (in its own document tree). */
export function hasFocus(el: Element): boolean {
  return deepActiveElement(el.ownerDocument) === el;
}
