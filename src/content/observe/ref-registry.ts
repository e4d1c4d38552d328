/**
 * Element ↔ ref bookkeeping for one page (one content-script lifetime).
 *
 * A ref is handed out once per element and kept for as long as the element
 * lives, so re-snapshots of an unchanged page show the same refs. Refs come
 * from a counter that only grows, so an element inserted later never receives
 * a ref an earlier (possibly removed) element had: a stale ref resolves to
 * nothing rather than to the wrong element.
 */
export class RefRegistry {
  private next = 1;
  private nextFrame = 1;
  private readonly refs = new WeakMap<Element, string>();
  private readonly elements = new Map<string, WeakRef<Element>>();
  private readonly frames = new WeakMap<Element, string>();

  /** The element's ref, created on first sight; "f1:7" inside frame f1. */
  refFor(el: Element, framePrefix?: string): string {
    const known = this.refs.get(el);
    if (known !== undefined) return known;
    const id = String(this.next++);
    const ref = framePrefix ? `${framePrefix}:${id}` : id;
    this.refs.set(el, ref);
    this.elements.set(ref, new WeakRef(el));
    return ref;
  }

  /** The element's ref if it already has one; never hands out a new one. */
  knownRef(el: Element): string | undefined {
    return this.refs.get(el);
  }

  /**
   * The live element behind a ref; null when it never existed, was collected,
   * or is detached from its document right now (the page removed it).
   */
  elementFor(ref: string): Element | null {
    const weak = this.elements.get(ref);
    if (weak === undefined) return null;
    const el = weak.deref();
    if (el === undefined) {
      this.elements.delete(ref);
      return null;
    }
    return el.isConnected ? el : null;
  }

  /** A stable name ("f1", "f2", …) for a same-origin iframe element. */
  frameIdFor(iframe: Element): string {
    const known = this.frames.get(iframe);
    if (known !== undefined) return known;
    const id = `f${this.nextFrame++}`;
    this.frames.set(iframe, id);
    return id;
  }

  /** Drops map entries whose elements were garbage-collected (bounded memory on long-lived SPAs). */
  prune(): void {
    for (const [ref, weak] of this.elements) if (weak.deref() === undefined) this.elements.delete(ref);
  }
}
