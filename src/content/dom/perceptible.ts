/**
 * Whether a person can actually see a piece of rendered text. `isRendered`
 * (visibility.ts) answers "does it take part in layout"; text can take part
 * in layout and still be invisible, the way hostile pages hide instructions
 * for a model: opacity 0, moved outside the page, clipped away (clip,
 * clip-path, an overflow-hidden box of zero size), a zero font size, or the
 * colour of what is behind it.
 *
 * The rule is geometric and stylistic, never lexical, so it holds on any
 * site. Speed: every fact is computed once per element per snapshot and
 * shared by its descendants (opacity and clip regions are products and
 * intersections along the ancestor chain); layout is only read, never
 * written, so nothing thrashes. The hit test that confirms a "same colour"
 * verdict runs only for text that already failed the colour comparison.
 *
 * The parts: inherited-styles.ts (opacity, scale, masks down the tree),
 * paint-regions.ts (clips and the page's scrollable area), text-colours.ts
 * (same-colour text), flat-tree.ts (parents across shadow roots and slots).
 */

import { InheritedStyles } from './inherited-styles.ts';
import { intersect, PaintRegions } from './paint-regions.ts';
import { TextColours } from './text-colours.ts';

export { clipPathBox, clipRect, contrast, parseColour } from './hiding-styles.ts';
export { flatParent } from './flat-tree.ts';

export type HiddenReason = 'transparent' | 'off-page' | 'clipped' | 'tiny-font' | 'same-colour' | 'scaled' | 'collapsed' | 'masked';

export interface Perceptibility {
  /** Why a person cannot see this text node, or null when they can. The caller has checked that its parent is rendered. */
  textHidden(text: Text): HiddenReason | null;
  /** The element's box lies wholly outside the document's scrollable area: nobody can scroll to it. */
  offPage(el: Element): boolean;
  /** Why a person cannot see the element's box: off the page, or clipped by what is above it to under 2 px; null when they can. */
  boxHidden(el: Element): 'off-page' | 'clipped' | null;
}

/** Below this opacity (product along the ancestors) text is treated as invisible. */
const MIN_OPACITY = 0.1;
/** Text smaller than this (CSS px, after scaling) cannot be read. */
const MIN_FONT_PX = 6;
/** Scaled down below this (product of the ancestors' transforms and scale), text cannot be read. */
const MIN_SCALE = 0.3;

export interface PerceptibilityDeps {
  styleOf(el: Element): CSSStyleDeclaration;
  rectOf(el: Element): DOMRect;
}

export function createPerceptibility(deps: PerceptibilityDeps): Perceptibility {
  const { styleOf, rectOf } = deps;
  const inherited = new InheritedStyles(styleOf);
  const regions = new PaintRegions(styleOf, rectOf);
  const colours = new TextColours(styleOf);
  const byParent = new Map<Element, HiddenReason | null | 'measure'>();

  const offPage = (el: Element): boolean => {
    const r = rectOf(el);
    const onPage = intersect(regions.rootBox(el.ownerDocument), { l: r.left, t: r.top, r: r.right, b: r.bottom });
    return r.width > 0 && r.height > 0 && (onPage.r - onPage.l <= 0 || onPage.b - onPage.t <= 0);
  };
  return {
    offPage,
    boxHidden: (el: Element) => (offPage(el) ? 'off-page' : regions.geometry(el, null)),
    textHidden(text: Text): HiddenReason | null {
      const el = text.parentElement;
      if (el === null) return null;
      let verdict = byParent.get(el);
      if (verdict === undefined) {
        const style = styleOf(el);
        const font = Number.parseFloat(style.fontSize);
        if (inherited.opacityOf(el) < MIN_OPACITY) verdict = 'transparent';
        else if (inherited.scaleOf(el) < MIN_SCALE) verdict = 'scaled';
        else if (font * inherited.scaleOf(el) < MIN_FONT_PX) verdict = 'tiny-font';
        // Negative letter-spacing of half the font size or more stacks the glyphs on each other.
        else if ((Number.parseFloat(style.letterSpacing) || 0) <= -0.5 * font) verdict = 'collapsed';
        else if (inherited.maskedOf(el)) verdict = 'masked';
        // The parent's box inside its clip region: enough for almost all text; when it is not
        // (a display:contents parent, text overflowing a zero-height box, a big text-indent) the
        // text node itself is measured.
        else verdict = regions.indentsText(el) || regions.geometry(el, null) !== null ? 'measure' : null;
        byParent.set(el, verdict);
      }
      let reason: HiddenReason | null = verdict === 'measure' ? regions.geometry(el, text) : verdict;
      if (reason === null && colours.sameColour(el, text)) reason = 'same-colour';
      return reason;
    },
  };
}
