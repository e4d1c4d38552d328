/**
 * Where an element's content can be seen (perceptible.ts): the document's
 * scrollable area, and the region each element paints in — its ancestors'
 * clips (overflow, clip, clip-path; an absolutely positioned box escapes
 * those below its containing block), then its own. Layout is only read.
 */
import { clipPathBox, clipRect, type Box } from './hiding-styles.ts';
import { containingBlock, flatParent } from './flat-tree.ts';

/** A visible region of this many px or fewer shows no readable text: the 1 px "visually hidden" box, and boxes up to 3 px. */
export const MIN_EXTENT = 4;

export class PaintRegions {
  private readonly clips = new Map<Element, Box>();
  private readonly roots = new Map<Document, Box>();
  private readonly textClip = new Map<Element, boolean>();
  private range: Range | null = null;

  constructor(
    private readonly styleOf: (el: Element) => CSSStyleDeclaration,
    private readonly rectOf: (el: Element) => DOMRect,
  ) {}

  /** The scrollable area of a document, in its viewport's coordinates: content outside it cannot be scrolled to. */
  rootBox(doc: Document): Box {
    let box = this.roots.get(doc);
    if (box === undefined) {
      const win = doc.defaultView;
      const root = doc.scrollingElement ?? doc.documentElement;
      const vw = win?.innerWidth ?? 0;
      const sx = win?.scrollX ?? 0;
      const sy = win?.scrollY ?? 0;
      // overflow-x hidden on the root or body: nothing right of the viewport can be reached.
      const clipsX = [doc.documentElement, doc.body].some((e) => e !== null && e !== undefined && /hidden|clip/.test(this.styleOf(e).overflowX));
      const width = clipsX ? vw : Math.max(root.scrollWidth, vw);
      const height = Math.max(root.scrollHeight, win?.innerHeight ?? 0);
      box = { l: -sx, t: -sy, r: width - sx, b: height - sy };
      this.roots.set(doc, box);
    }
    return box;
  }

  /** The region an element's own content is painted in: its ancestors' clips, then its own. */
  clipOf(el: Element): Box {
    let box = this.clips.get(el);
    if (box !== undefined) return box;
    const s = this.styleOf(el);
    const position = s.position;
    const doc = el.ownerDocument;
    if (position === 'fixed') {
      const win = doc.defaultView;
      box = { l: 0, t: 0, r: win?.innerWidth ?? 0, b: win?.innerHeight ?? 0 };
    } else {
      // An absolutely positioned box escapes the clips between it and its containing block.
      const from = position === 'absolute' ? containingBlock(el, this.styleOf) : flatParent(el);
      box = from === null ? this.rootBox(doc) : this.clipOf(from);
    }
    const overflow = s.overflow;
    if (overflow !== 'visible' && overflow !== '') {
      const r = this.rectOf(el);
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
      const c = clipRect(s.clip, this.rectOf(el));
      if (c !== null) box = intersect(box, c);
    }
    if (s.clipPath !== 'none' && s.clipPath !== '') {
      const c = clipPathBox(s.clipPath, this.rectOf(el));
      if (c !== null) box = intersect(box, c);
    }
    this.clips.set(el, box);
    return box;
  }

  /** A text-indent that throws the text out of its box (the old image-replacement trick) needs the text's own box. */
  indentsText(el: Element): boolean {
    let v = this.textClip.get(el);
    if (v === undefined) {
      v = Math.abs(Number.parseFloat(this.styleOf(el).textIndent) || 0) > this.rectOf(el).width;
      this.textClip.set(el, v);
    }
    return v;
  }

  measureText(text: Text): DOMRect {
    this.range ??= text.ownerDocument.createRange();
    this.range.selectNodeContents(text);
    return this.range.getBoundingClientRect();
  }

  /** Whether the element (or, given, its text node) shows enough of itself inside its paint region; if not, why. */
  geometry(el: Element, text: Text | null): 'off-page' | 'clipped' | null {
    const clip = this.clipOf(el);
    const r = text === null ? this.rectOf(el) : this.measureText(text);
    const seen = intersect(clip, { l: r.left, t: r.top, r: r.right, b: r.bottom });
    if (seen.r - seen.l >= MIN_EXTENT && seen.b - seen.t >= MIN_EXTENT) return null;
    if (text === null) return 'clipped';
    const page = this.rootBox(el.ownerDocument);
    const onPage = intersect(page, { l: r.left, t: r.top, r: r.right, b: r.bottom });
    return r.width > 0 && r.height > 0 && (onPage.r - onPage.l < MIN_EXTENT || onPage.b - onPage.t < MIN_EXTENT) ? 'off-page' : 'clipped';
  }
}

export function intersect(a: Box, b: Box): Box {
  return { l: Math.max(a.l, b.l), t: Math.max(a.t, b.t), r: Math.min(a.r, b.r), b: Math.min(a.b, b.b) };
}
