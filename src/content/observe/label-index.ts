/**
 * `element.labels`, answered from one index per tree scope for the length of
 * a snapshot.
 *
 * Chromium answers `element.labels` by scanning the whole tree scope, once per
 * control after every DOM change: quadratic on big forms (2.6 s for 7k
 * controls). The index is built once per scope and served to the name
 * computation (dom-accessibility-api reads `labels`) by patching the getter on
 * the prototypes of each window met (iframes have their own). `restore()`
 * puts the originals back; nothing else runs on the page thread in between.
 */

const LABELABLE_CONSTRUCTORS = [
  'HTMLInputElement', 'HTMLSelectElement', 'HTMLTextAreaElement', 'HTMLButtonElement', 'HTMLMeterElement', 'HTMLOutputElement', 'HTMLProgressElement',
];
/** Tags whose name may come from a <label>: the getter is patched before their name is computed. */
export const LABELABLE_TAGS = new Set(['input', 'select', 'textarea', 'button', 'meter', 'output', 'progress']);

export class LabelIndex {
  private readonly byScope = new Map<Node, Map<Element, HTMLLabelElement[]>>();
  private readonly restorers: Array<() => void> = [];
  private readonly patchedWindows = new Set<Window>();

  /** The labels of a control, from the index of its tree scope (built on first use). */
  readonly labelsOf = (el: Element): HTMLLabelElement[] => {
    const scope = el.getRootNode();
    let index = this.byScope.get(scope);
    if (index === undefined) {
      index = new Map();
      const all = (scope as Document | ShadowRoot).querySelectorAll?.('label') ?? [];
      for (const label of all) {
        const control = label.control;
        if (control === null) continue;
        const list = index.get(control);
        if (list === undefined) index.set(control, [label]);
        else list.push(label);
      }
      this.byScope.set(scope, index);
    }
    return index.get(el) ?? [];
  };

  /** Serves `labels` from the index on this window's labelable prototypes, once per window. */
  patch(win: Window): void {
    if (this.patchedWindows.has(win)) return;
    this.patchedWindows.add(win);
    const labelsOf = this.labelsOf;
    const w = win as unknown as Record<string, { prototype: object } | undefined>;
    for (const ctor of LABELABLE_CONSTRUCTORS) {
      const proto = w[ctor]?.prototype;
      if (proto === undefined) continue;
      const original = Object.getOwnPropertyDescriptor(proto, 'labels');
      if (original === undefined || original.configurable !== true) continue;
      Object.defineProperty(proto, 'labels', { configurable: true, enumerable: original.enumerable ?? true, get(this: Element) { return labelsOf(this); } });
      this.restorers.push(() => Object.defineProperty(proto, 'labels', original));
    }
  }

  /** Puts every patched getter back. */
  restore(): void {
    for (const restore of this.restorers) restore();
    this.restorers.length = 0;
  }
}
