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
 */

import { clipPathBox, clipRect, contrast, hidesByMask, MIN_CONTRAST, over, parseColour, scaleProperty, shadowShows, transformScale, type Box, type Rgba } from './hiding-styles.ts';

export { clipPathBox, clipRect, contrast, parseColour } from './hiding-styles.ts';

export type HiddenReason = 'transparent' | 'off-page' | 'clipped' | 'tiny-font' | 'same-colour' | 'scaled' | 'collapsed' | 'masked';

export interface Perceptibility {
  /** Why a person cannot see this text node, or null when they can. The caller has checked that its parent is rendered. */
  textHidden(text: Text): HiddenReason | null;
  /** The element's box lies wholly outside the document's scrollable area: nobody can scroll to it. */
  offPage(el: Element): boolean;
}

/** Where the effective background is known: a colour; or `null` when an image, a video or a blend makes it unknowable. */
type Backdrop = Rgba | null;

/** Below this opacity (product along the ancestors) text is treated as invisible. */
const MIN_OPACITY = 0.1;
/** Text smaller than this (CSS px, after scaling) cannot be read. */
const MIN_FONT_PX = 6;
/** Scaled down below this (product of the ancestors' transforms and scale), text cannot be read. */
const MIN_SCALE = 0.3;
/** A visible region of this many px or fewer shows no readable text: the 1 px "visually hidden" box, and boxes up to 3 px. */
const MIN_EXTENT = 4;
const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 1 };
const REPLACED = new Set(['img', 'video', 'canvas', 'svg', 'iframe', 'embed', 'object', 'picture', 'input', 'textarea', 'select']);

export interface PerceptibilityDeps {
  styleOf(el: Element): CSSStyleDeclaration;
  rectOf(el: Element): DOMRect;
}

export function createPerceptibility(deps: PerceptibilityDeps): Perceptibility {
  const { styleOf, rectOf } = deps;
  const opacities = new Map<Element, number>();
  const clips = new Map<Element, Box>();
  const roots = new Map<Document, Box>();
  const byParent = new Map<Element, HiddenReason | null | 'measure'>();
  const backdrops = new Map<Element, Backdrop>();
  const textClip = new Map<Element, boolean>();
  const colourSuspects = new Map<Element, 'transparent' | 'backdrop' | 'no'>();
  let range: Range | null = null;

  const scales = new Map<Element, number>();
  /** The product of the ancestors' transform and scale factors (the smaller axis). */
  const scaleOf = (el: Element): number => {
    let k = scales.get(el);
    if (k === undefined) {
      const parent = flatParent(el);
      const s = styleOf(el) as CSSStyleDeclaration & { scale?: string; zoom?: string };
      k = transformScale(s.transform) * scaleProperty(s.scale) * (Number.parseFloat(s.zoom ?? '1') || 1) * (parent === null ? 1 : scaleOf(parent));
      scales.set(el, k);
    }
    return k;
  };
  const masks = new Map<Element, boolean>();
  /** A mask that hides everything: an image mask (url), or a gradient whose every stop is transparent. */
  const maskedOf = (el: Element): boolean => {
    let m = masks.get(el);
    if (m === undefined) {
      const s = styleOf(el) as CSSStyleDeclaration & { webkitMaskImage?: string };
      const parent = flatParent(el);
      m = hidesByMask(s.maskImage || s.webkitMaskImage || 'none') || (parent !== null && maskedOf(parent));
      masks.set(el, m);
    }
    return m;
  };

  const opacityOf = (el: Element): number => {
    let o = opacities.get(el);
    if (o === undefined) {
      const parent = flatParent(el);
      const own = Number.parseFloat(styleOf(el).opacity);
      o = (Number.isNaN(own) ? 1 : own) * (parent === null ? 1 : opacityOf(parent));
      opacities.set(el, o);
    }
    return o;
  };

  /** The scrollable area of a document, in its viewport's coordinates: content outside it cannot be scrolled to. */
  const rootBox = (doc: Document): Box => {
    let box = roots.get(doc);
    if (box === undefined) {
      const win = doc.defaultView;
      const root = doc.scrollingElement ?? doc.documentElement;
      const vw = win?.innerWidth ?? 0;
      const sx = win?.scrollX ?? 0;
      const sy = win?.scrollY ?? 0;
      // overflow-x hidden on the root or body: nothing right of the viewport can be reached.
      const clipsX = [doc.documentElement, doc.body].some((e) => e !== null && e !== undefined && /hidden|clip/.test(styleOf(e).overflowX));
      const width = clipsX ? vw : Math.max(root.scrollWidth, vw);
      const height = Math.max(root.scrollHeight, win?.innerHeight ?? 0);
      box = { l: -sx, t: -sy, r: width - sx, b: height - sy };
      roots.set(doc, box);
    }
    return box;
  };

  /** The region an element's own content is painted in: its ancestors' clips, then its own. */
  const clipOf = (el: Element): Box => {
    let box = clips.get(el);
    if (box !== undefined) return box;
    const s = styleOf(el);
    const position = s.position;
    const doc = el.ownerDocument;
    if (position === 'fixed') {
      const win = doc.defaultView;
      box = { l: 0, t: 0, r: win?.innerWidth ?? 0, b: win?.innerHeight ?? 0 };
    } else {
      // An absolutely positioned box escapes the clips between it and its containing block.
      const from = position === 'absolute' ? containingBlock(el, styleOf) : flatParent(el);
      box = from === null ? rootBox(doc) : clipOf(from);
    }
    const overflow = s.overflow;
    if (overflow !== 'visible' && overflow !== '') {
      const r = rectOf(el);
      const [ox, oy] = overflow.split(' ');
      const x = ox ?? 'visible';
      const y = oy ?? x;
      // hidden/clip crop to the box. A scroll container (auto/scroll) shows what a person can
      // scroll into its box: its scrollable area, provided the box itself can be seen.
      const crop = (mode: string, lo: number, hi: number, from: number, to: number, scrollLo: number, scrollSize: number): [number, number] => {
        if (mode === 'visible') return [from, to];
        if (mode === 'hidden' || mode === 'clip') return [Math.max(from, lo), Math.min(to, hi)];
        if (Math.min(to, hi) - Math.max(from, lo) < MIN_EXTENT) return [lo, lo];
        return [scrollLo, scrollLo + scrollSize];
      };
      const [l, rr] = crop(x, r.left, r.right, box.l, box.r, r.left + el.clientLeft - el.scrollLeft, el.scrollWidth);
      const [t, bb] = crop(y, r.top, r.bottom, box.t, box.b, r.top + el.clientTop - el.scrollTop, el.scrollHeight);
      box = { l, t, r: rr, b: bb };
    }
    if ((position === 'absolute' || position === 'fixed') && s.clip !== 'auto' && s.clip !== '') {
      const c = clipRect(s.clip, rectOf(el));
      if (c !== null) box = intersect(box, c);
    }
    if (s.clipPath !== 'none' && s.clipPath !== '') {
      const c = clipPathBox(s.clipPath, rectOf(el));
      if (c !== null) box = intersect(box, c);
    }
    clips.set(el, box);
    return box;
  };

  /** A text-indent that throws the text out of its box (the old image-replacement trick) needs the text's own box. */
  const indentsText = (el: Element): boolean => {
    let v = textClip.get(el);
    if (v === undefined) {
      v = Math.abs(Number.parseFloat(styleOf(el).textIndent) || 0) > rectOf(el).width;
      textClip.set(el, v);
    }
    return v;
  };

  const backdropOf = (el: Element): Backdrop => {
    if (backdrops.has(el)) return backdrops.get(el) ?? null;
    const s = styleOf(el);
    let out: Backdrop;
    if (s.backgroundImage !== 'none' && s.backgroundImage !== '') out = null;
    else {
      const bg = parseColour(s.backgroundColor);
      const parent = flatParent(el);
      if (bg === null) out = null;
      else if (bg.a >= 0.99) out = bg;
      else {
        const under = parent === null ? canvasColour(el) : backdropOf(parent);
        out = under === null ? null : bg.a === 0 ? under : over(bg, under);
      }
    }
    backdrops.set(el, out);
    return out;
  };

  /** Text drawn in (nearly) the colour behind it, or in a transparent colour. */
  const sameColour = (el: Element, text: Text): boolean => {
    let suspect = colourSuspects.get(el);
    if (suspect === undefined) {
      suspect = colourMatchesBackdrop(el);
      colourSuspects.set(el, suspect);
    }
    if (suspect !== 'backdrop') return suspect === 'transparent';
    return !somethingElseBehind(el, text, backdropOf);
  };

  /** From styles alone: 'transparent' glyphs, glyphs the colour of the 'backdrop' (to be confirmed), or 'no'. */
  const colourMatchesBackdrop = (el: Element): 'transparent' | 'backdrop' | 'no' => {
    const s = styleOf(el);
    const fill = parseColour(s.webkitTextFillColor) ?? parseColour(s.color);
    if (fill === null) return 'no';
    // A shadow or a stroke shows the glyphs only when it can be seen itself: not transparent, not a hairline, not under the glyph.
    const back0 = backdropOf(el);
    if (shadowShows(s.textShadow, back0)) return 'no';
    const stroke = parseColour(s.webkitTextStrokeColor);
    if ((Number.parseFloat(s.webkitTextStrokeWidth) || 0) >= 0.5 && (stroke === null || (stroke.a >= 0.1 && (back0 === null || contrast(over(stroke, back0), back0) >= MIN_CONTRAST)))) return 'no';
    // Gradient text paints the background through transparent glyphs.
    if (fill.a < 0.1) return clipsBackgroundToText(el, styleOf) ? 'no' : 'transparent';
    const back = backdropOf(el);
    if (back === null) return 'no';
    return contrast(over(fill, back), back) >= MIN_CONTRAST ? 'no' : 'backdrop';
  };

  const measureText = (text: Text): DOMRect => {
    range ??= text.ownerDocument.createRange();
    range.selectNodeContents(text);
    return range.getBoundingClientRect();
  };

  const geometry = (el: Element, text: Text | null): HiddenReason | null => {
    const clip = clipOf(el);
    const r = text === null ? rectOf(el) : measureText(text);
    const seen = intersect(clip, { l: r.left, t: r.top, r: r.right, b: r.bottom });
    if (seen.r - seen.l >= MIN_EXTENT && seen.b - seen.t >= MIN_EXTENT) return null;
    if (text === null) return 'clipped';
    const page = rootBox(el.ownerDocument);
    const onPage = intersect(page, { l: r.left, t: r.top, r: r.right, b: r.bottom });
    return r.width > 0 && r.height > 0 && (onPage.r - onPage.l < MIN_EXTENT || onPage.b - onPage.t < MIN_EXTENT) ? 'off-page' : 'clipped';
  };

  return {
    offPage(el: Element): boolean {
      const r = rectOf(el);
      const onPage = intersect(rootBox(el.ownerDocument), { l: r.left, t: r.top, r: r.right, b: r.bottom });
      return r.width > 0 && r.height > 0 && (onPage.r - onPage.l <= 0 || onPage.b - onPage.t <= 0);
    },
    textHidden(text: Text): HiddenReason | null {
      const el = text.parentElement;
      if (el === null) return null;
      let verdict = byParent.get(el);
      if (verdict === undefined) {
        const style = styleOf(el);
        const font = Number.parseFloat(style.fontSize);
        if (opacityOf(el) < MIN_OPACITY) verdict = 'transparent';
        else if (scaleOf(el) < MIN_SCALE) verdict = 'scaled';
        else if (font * scaleOf(el) < MIN_FONT_PX) verdict = 'tiny-font';
        // Negative letter-spacing of half the font size or more stacks the glyphs on each other.
        else if ((Number.parseFloat(style.letterSpacing) || 0) <= -0.5 * font) verdict = 'collapsed';
        else if (maskedOf(el)) verdict = 'masked';
        // The parent's box inside its clip region: enough for almost all text; when it is not
        // (a display:contents parent, text overflowing a zero-height box, a big text-indent) the
        // text node itself is measured.
        else verdict = indentsText(el) || geometry(el, null) !== null ? 'measure' : null;
        byParent.set(el, verdict);
      }
      let reason: HiddenReason | null = verdict === 'measure' ? geometry(el, text) : verdict;
      if (reason === null && sameColour(el, text)) reason = 'same-colour';
      return reason;
    },
  };
}

/** The parent in the flat tree: a slotted node's slot, a shadow root's host. */
export function flatParent(el: Element): Element | null {
  if (el.assignedSlot) return el.assignedSlot;
  if (el.parentElement !== null) return el.parentElement;
  const p = el.parentNode;
  return p !== null && p.nodeType === 11 ? (p as ShadowRoot).host : null;
}

function containingBlock(el: Element, styleOf: (el: Element) => CSSStyleDeclaration): Element | null {
  for (let p = flatParent(el); p !== null; p = flatParent(p)) {
    const s = styleOf(p);
    if (s.position !== 'static' || (s.transform !== 'none' && s.transform !== '')) return p;
  }
  return null;
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

function intersect(a: Box, b: Box): Box {
  return { l: Math.max(a.l, b.l), t: Math.max(a.t, b.t), r: Math.min(a.r, b.r), b: Math.min(a.b, b.b) };
}

