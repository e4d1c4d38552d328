/**
 * Text drawn in the colour behind it (perceptible.ts): the backdrop from the
 * ancestors' backgrounds (unknown under an image, a video or a blend), the
 * glyphs' fill against it (a visible shadow or stroke shows them, gradient
 * text paints through transparent glyphs), and a hit test that confirms the
 * verdict only for text that already failed the colour comparison.
 */
import { contrast, MIN_CONTRAST, over, parseColour, shadowShows, type Rgba } from './hiding-styles.ts';
import { flatParent } from './flat-tree.ts';

/** Where the effective background is known: a colour; or `null` when an image, a video or a blend makes it unknowable. */
type Backdrop = Rgba | null;

const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 1 };
const REPLACED = new Set(['img', 'video', 'canvas', 'svg', 'iframe', 'embed', 'object', 'picture', 'input', 'textarea', 'select']);

export class TextColours {
  private readonly backdrops = new Map<Element, Backdrop>();
  private readonly colourSuspects = new Map<Element, 'transparent' | 'backdrop' | 'no'>();

  constructor(private readonly styleOf: (el: Element) => CSSStyleDeclaration) {}

  /** The colour behind an element's text, from its own and its ancestors' backgrounds; null when unknowable. */
  backdropOf(el: Element): Backdrop {
    if (this.backdrops.has(el)) return this.backdrops.get(el) ?? null;
    const s = this.styleOf(el);
    let out: Backdrop;
    if (s.backgroundImage !== 'none' && s.backgroundImage !== '') out = null;
    else {
      const bg = parseColour(s.backgroundColor);
      const parent = flatParent(el);
      if (bg === null) out = null;
      else if (bg.a >= 0.99) out = bg;
      else {
        const under = parent === null ? canvasColour(el) : this.backdropOf(parent);
        out = under === null ? null : bg.a === 0 ? under : over(bg, under);
      }
    }
    this.backdrops.set(el, out);
    return out;
  }

  /** Text drawn in (nearly) the colour behind it, or in a transparent colour. */
  sameColour(el: Element, text: Text): boolean {
    let suspect = this.colourSuspects.get(el);
    if (suspect === undefined) {
      suspect = this.colourMatchesBackdrop(el);
      this.colourSuspects.set(el, suspect);
    }
    if (suspect !== 'backdrop') return suspect === 'transparent';
    return !somethingElseBehind(el, text, (e) => this.backdropOf(e));
  }

  /** From styles alone: 'transparent' glyphs, glyphs the colour of the 'backdrop' (to be confirmed), or 'no'. */
  colourMatchesBackdrop(el: Element): 'transparent' | 'backdrop' | 'no' {
    const s = this.styleOf(el);
    const fill = parseColour(s.webkitTextFillColor) ?? parseColour(s.color);
    if (fill === null) return 'no';
    // A shadow or a stroke shows the glyphs only when it can be seen itself: not transparent, not a hairline, not under the glyph.
    const back0 = this.backdropOf(el);
    if (shadowShows(s.textShadow, back0)) return 'no';
    const stroke = parseColour(s.webkitTextStrokeColor);
    if ((Number.parseFloat(s.webkitTextStrokeWidth) || 0) >= 0.5 && (stroke === null || (stroke.a >= 0.1 && (back0 === null || contrast(over(stroke, back0), back0) >= MIN_CONTRAST)))) return 'no';
    // Gradient text paints the background through transparent glyphs.
    if (fill.a < 0.1) return clipsBackgroundToText(el, this.styleOf) ? 'no' : 'transparent';
    const back = this.backdropOf(el);
    if (back === null) return 'no';
    return contrast(over(fill, back), back) >= MIN_CONTRAST ? 'no' : 'backdrop';
  }
}

function clipsBackgroundToText(el: Element, styleOf: (el: Element) => CSSStyleDeclaration): boolean {
  for (let p: Element | null = el; p !== null; p = flatParent(p)) {
    const s = styleOf(p) as CSSStyleDeclaration & { webkitBackgroundClip?: string };
    if (/\btext\b/.test(s.backgroundClip) || /\btext\b/.test(s.webkitBackgroundClip ?? '')) return true;
    if (s.backgroundImage !== 'none' && s.backgroundImage !== '') return false;
  }
  return false;
}

/**
 * The backdrop from the ancestor chain ignores what is painted behind by other
 * elements (a hero image or video under white text): hit-test the text's
 * centre, and if anything that is not one of its ancestors paints there, the
 * colour behind is unknown and the text counts as visible.
 */
function somethingElseBehind(el: Element, text: Text, backdropOf: (el: Element) => Backdrop): boolean {
  const doc = el.ownerDocument;
  const win = doc.defaultView;
  if (win === null) return true;
  const range = doc.createRange();
  range.selectNodeContents(text);
  const r = range.getBoundingClientRect();
  const x = r.left + r.width / 2;
  const y = r.top + r.height / 2;
  // Out of the viewport a hit test sees nothing: the ancestor chain decides.
  if (x < 0 || y < 0 || x >= win.innerWidth || y >= win.innerHeight) return false;
  const chain = new Set<Element>();
  for (let p: Element | null = el; p !== null; p = flatParent(p)) chain.add(p);
  for (const hit of doc.elementsFromPoint(x, y)) {
    if (chain.has(hit) || hit === doc.documentElement || hit === doc.body) continue;
    if (REPLACED.has(hit.localName)) return true;
    const s = hit.ownerDocument.defaultView?.getComputedStyle(hit);
    if (s === undefined) return true;
    if (s.backgroundImage !== 'none') return true;
    const bg = parseColour(s.backgroundColor);
    if (bg === null || bg.a > 0) {
      // A box of the very colour already assumed behind changes nothing.
      const assumed = backdropOf(el);
      if (bg === null || assumed === null || bg.a < 0.99 || contrast(bg, assumed) >= MIN_CONTRAST) return true;
    }
  }
  return false;
}

/** The canvas behind the root: white unless the page asks for a dark scheme (then unknown). */
function canvasColour(el: Element): Backdrop {
  const root = el.ownerDocument.documentElement;
  const scheme = root.ownerDocument.defaultView?.getComputedStyle(root).colorScheme ?? '';
  return /dark/.test(scheme) ? null : WHITE;
}
