/**
 * The state of one snapshot: the nodes emitted so far, what was left out and
 * why, and the per-snapshot caches every part shares.
 *
 * Speed: computed styles, bounding boxes and "is it rendered" are cached for
 * the whole snapshot (the style cache is shared with dom-accessibility-api),
 * and text far from the viewport is counted, not checked. Visibility uses
 * `checkVisibility()` on emitted lines only: it reads the layout Chromium
 * already has and covers hidden ancestors.
 */
import type { SnapshotNode } from '../../core/page/observation.ts';
import { deepActiveElement } from '../dom/focus.ts';
import { isRendered } from '../dom/visibility.ts';
import { createPerceptibility, type HiddenReason, type Perceptibility } from '../dom/perceptible.ts';
import type { NameProvenanceDeps } from './name-provenance.ts';
import type { ClickableContext } from './clickable.ts';
import type { RefRegistry } from './ref-registry.ts';
import { LabelIndex } from './label-index.ts';
import { TargetContexts } from './target-context.ts';
import { cap, collapse, MAX_TEXT } from './snapshot-text.ts';

export interface FrameContext {
  win: Window;
  /** "f1" inside the first same-origin iframe; undefined in the top document. */
  prefix: string | undefined;
  /** Offset of this frame's viewport inside the top viewport. */
  dx: number;
  dy: number;
}

interface TextRun {
  /** The text, and for page text (not the separators added here) its node: checked for visibility when the run is shown. */
  parts: Array<{ data: string; node: Text | null }>;
  anchor: Element;
  depth: number;
  frame: FrameContext;
}

const HIDDEN_WORDS: Record<HiddenReason, string> = {
  transparent: 'transparent', 'off-page': 'off the page', clipped: 'clipped', 'tiny-font': 'tiny font', 'same-colour': 'same colour as background',
  scaled: 'scaled down', collapsed: 'letters collapsed', masked: 'masked',
};
const MAX_NODES = 20_000;

export class SnapshotSession {
  readonly top: Window;
  readonly vw: number;
  readonly vh: number;
  readonly topFrame: FrameContext;
  readonly nodes: SnapshotNode[] = [];
  readonly omissions: string[] = [];
  readonly offscreen = { above: 0, below: 0 };
  readonly focusedEl: Element | null;
  focusedRef: string | null = null;
  /** Set when the snapshot stopped early (too many lines, too deep). */
  stoppedAt: number | null = null;
  readonly labels = new LabelIndex();
  readonly perceptibility: Perceptibility;
  readonly clickableContext: ClickableContext;
  readonly nameOptions: { getComputedStyle: typeof window.getComputedStyle; computedStyleSupportsPseudoElements: boolean };
  readonly provenance: NameProvenanceDeps;
  /** Whether each form has a submit control, looked up once per form (a large form has many controls). */
  readonly formHasSubmit = new Map<HTMLFormElement, boolean>();
  /** Rows, cards, groups and dialogs, each named once for every control in it. */
  readonly contexts = new TargetContexts();

  private readonly styles = new Map<Element, CSSStyleDeclaration>();
  private readonly rects = new Map<Element, DOMRect>();
  private readonly renderedCache = new Map<Element, boolean>();
  private readonly hiddenText = new Map<HiddenReason, number>();
  private unreadable = 0;
  private firstUnreadable = '';
  private run: TextRun | null = null;
  private lastLine = '';

  constructor(doc: Document, readonly registry: RefRegistry) {
    const top = doc.defaultView;
    if (top === null) throw new Error('observePage: document has no window');
    this.top = top;
    this.vw = top.innerWidth;
    this.vh = top.innerHeight;
    this.topFrame = { win: top, prefix: undefined, dx: 0, dy: 0 };
    this.focusedEl = deepActiveElement(doc);
    this.nameOptions = { getComputedStyle: ((el: Element) => this.styleOf(el)) as typeof window.getComputedStyle, computedStyleSupportsPseudoElements: true };
    // Text a person cannot see (opacity 0, off the page, clipped away, tiny, the
    // background's colour) is left out of the text lines and counted; a name made
    // of it is kept but says what is visible (name-provenance.ts).
    this.perceptibility = createPerceptibility({ styleOf: this.styleOf, rectOf: this.rectOf });
    this.clickableContext = { styleOf: this.styleOf, rectOf: this.rectOf, viewportArea: this.vw * this.vh };
    this.provenance = { rendered: this.shown, textHidden: (t: Text) => this.perceptibility.textHidden(t), labelsOf: this.labels.labelsOf };
  }

  readonly styleOf = (el: Element): CSSStyleDeclaration => {
    let s = this.styles.get(el);
    if (s === undefined) {
      s = (el.ownerDocument.defaultView ?? this.top).getComputedStyle(el);
      this.styles.set(el, s);
    }
    return s;
  };

  readonly rectOf = (el: Element): DOMRect => {
    let r = this.rects.get(el);
    if (r === undefined) {
      r = el.getBoundingClientRect();
      this.rects.set(el, r);
    }
    return r;
  };

  /** Takes part in layout (cached). */
  readonly shown = (el: Element): boolean => {
    let v = this.renderedCache.get(el);
    if (v === undefined) {
      v = isRendered(el);
      this.renderedCache.set(el, v);
    }
    return v;
  };

  /** -1 above the viewport, 0 inside, 1 below; `margin` widens the band (in viewport heights). */
  placement(el: Element, frame: FrameContext, margin: number): -1 | 0 | 1 {
    const { vw, vh } = this;
    const r = this.rectOf(el);
    const t = r.top + frame.dy;
    const b = r.bottom + frame.dy;
    if (b < -margin * vh) return -1;
    if (t > vh + margin * vh) return 1;
    const l = r.left + frame.dx;
    if (margin === 0 && (r.right + frame.dx < 0 || l > vw)) return t < 0 ? -1 : 1;
    return 0;
  }

  noteHidden(reason: HiddenReason): void {
    this.hiddenText.set(reason, (this.hiddenText.get(reason) ?? 0) + 1);
  }

  /** An element the page made unreadable (a throwing getter, a replaced method): counted, never fatal. */
  noteUnreadable(err: unknown): void {
    this.unreadable++;
    if (this.firstUnreadable === '') this.firstUnreadable = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  }

  push(n: SnapshotNode): void {
    if (this.nodes.length >= MAX_NODES) {
      this.stoppedAt ??= this.nodes.length;
      return;
    }
    this.nodes.push(n);
    this.lastLine = n.name;
  }

  /** A page text node joins the current text run (or starts one, when its parent is rendered). */
  addText(node: Text, depth: number, frame: FrameContext): void {
    const parent = node.parentElement;
    const data = node.nodeValue ?? '';
    if (parent === null || data.trim() === '' && this.run === null) return;
    if (this.run === null) {
      if (!this.shown(parent)) return;
      this.run = { parts: [], anchor: parent, depth, frame };
    }
    this.run.parts.push({ data, node });
  }

  /** A <br> separates words inside the current run. */
  addBreak(): void {
    if (this.run !== null) this.run.parts.push({ data: ' ', node: null });
  }

  /** Ends the current text run: emits it as one text line, or counts it when it is off screen or unseen. */
  flush(): void {
    const r = this.run;
    this.run = null;
    if (r === null) return;
    if (collapse(r.parts.map((p) => p.data).join('')) === '') return;
    // Text far from the viewport is summarized by count, not shown (nor checked: that costs).
    let inViewport: boolean;
    let text: string;
    try {
      const where = this.placement(r.anchor, r.frame, 1);
      inViewport = this.placement(r.anchor, r.frame, 0) === 0;
      if (where !== 0 && this.perceptibility.offPage(r.anchor)) {
        this.noteHidden('off-page');
        return;
      }
      if (where !== 0) {
        if (where < 0) this.offscreen.above++;
        else this.offscreen.below++;
        return;
      }
      text = cap(collapse(r.parts.map((p) => this.visiblePart(p)).join('')), MAX_TEXT);
    } catch (err) {
      this.noteUnreadable(err);
      return;
    }
    if (text === '' || text === this.lastLine) return;
    const n: SnapshotNode = {
      ref: null, kind: 'text', role: 'text', name: text, states: {}, depth: r.depth, inViewport,
    };
    if (r.frame.prefix !== undefined) n.frame = r.frame.prefix;
    this.push(n);
  }

  /** Says what was left out and why, once the walk is over. */
  summarize(): void {
    const { omissions } = this;
    if (this.hiddenText.size > 0) {
      let total = 0;
      for (const k of this.hiddenText.values()) total += k;
      const why = [...this.hiddenText].map(([reason, k]) => `${HIDDEN_WORDS[reason]} ${k}`).join(', ');
      omissions.push(`${total} piece${total === 1 ? '' : 's'} of text a person cannot see left out (${why})`);
    }
    if (this.unreadable > 0) {
      omissions.push(`${this.unreadable} element${this.unreadable === 1 ? ' was' : 's were'} unreadable and skipped (${cap(this.firstUnreadable, 120)})`);
    }
    if (this.stoppedAt !== null && !omissions.some((o) => o.startsWith('content nested'))) {
      omissions.push(`stopped after ${this.stoppedAt} lines: the page is too large to list in full`);
    }
  }

  /** A run's piece as shown: '' when a person cannot see it (counted). */
  private visiblePart(part: { data: string; node: Text | null }): string {
    const { data, node } = part;
    if (node === null || data.trim() === '') return data;
    const parent = node.parentElement;
    if (parent === null || !this.shown(parent)) return '';
    const hidden = this.perceptibility.textHidden(node);
    if (hidden === null) return data;
    this.noteHidden(hidden);
    return '';
  }
}
