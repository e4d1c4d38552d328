/**
 * Style facts that compound down the flat tree (perceptible.ts): opacity and
 * scale are products along the ancestors, a hiding mask hides every
 * descendant. Each is computed once per element per snapshot.
 */
import { hidesByMask, scaleProperty, transformScale } from './hiding-styles.ts';
import { flatParent } from './flat-tree.ts';

export class InheritedStyles {
  private readonly opacities = new Map<Element, number>();
  private readonly scales = new Map<Element, number>();
  private readonly masks = new Map<Element, boolean>();

  constructor(private readonly styleOf: (el: Element) => CSSStyleDeclaration) {}

  /** The product of the ancestors' transform and scale factors (the smaller axis). */
  scaleOf(el: Element): number {
    let k = this.scales.get(el);
    if (k === undefined) {
      const parent = flatParent(el);
      const s = this.styleOf(el) as CSSStyleDeclaration & { scale?: string; zoom?: string };
      k = transformScale(s.transform) * scaleProperty(s.scale) * (Number.parseFloat(s.zoom ?? '1') || 1) * (parent === null ? 1 : this.scaleOf(parent));
      this.scales.set(el, k);
    }
    return k;
  }

  /** A mask that hides everything: an image mask (url), or a gradient whose every stop is transparent. */
  maskedOf(el: Element): boolean {
    let m = this.masks.get(el);
    if (m === undefined) {
      const s = this.styleOf(el) as CSSStyleDeclaration & { webkitMaskImage?: string };
      const parent = flatParent(el);
      m = hidesByMask(s.maskImage || s.webkitMaskImage || 'none') || (parent !== null && this.maskedOf(parent));
      this.masks.set(el, m);
    }
    return m;
  }

  opacityOf(el: Element): number {
    let o = this.opacities.get(el);
    if (o === undefined) {
      const parent = flatParent(el);
      const own = Number.parseFloat(this.styleOf(el).opacity);
      o = (Number.isNaN(own) ? 1 : own) * (parent === null ? 1 : this.opacityOf(parent));
      this.opacities.set(el, o);
    }
    return o;
  }
}
