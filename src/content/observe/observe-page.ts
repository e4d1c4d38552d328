/**
 * Page → accessibility snapshot. Walks the rendered (flat) tree of a document,
 * through open shadow roots and same-origin iframes, and emits one node per
 * interactive element, heading, landmark and short visible text run.
 *
 * Speed: roles come from a tag/attribute pre-filter, so `getRole` and the
 * (costly) accessible-name computation run only on elements that can be
 * emitted; computed styles are cached for the whole snapshot and shared with
 * dom-accessibility-api. Visibility uses `checkVisibility()` on emitted lines
 * only: it reads the layout Chromium already has and covers hidden ancestors.
 */
import { computeAccessibleName, getRole } from 'dom-accessibility-api';
import type { ElementStates, ObserveOptions, PageObservation, SnapshotNode } from '../../core/page/observation.ts';
import { truncateObservation } from '../../core/page/render-observation.ts';
import type { RefRegistry } from './ref-registry.ts';
import { deepActiveElement } from '../dom/focus.ts';
import { isRendered, isVisible } from '../dom/visibility.ts';
import { createPerceptibility, type HiddenReason } from '../dom/perceptible.ts';
import { shownTextFor } from './name-provenance.ts';
import { clickSignals, impliedRole, isOneControl, type ClickableContext } from './clickable.ts';
import { guessedIconName, visibleName } from './name-hints.ts';
import { INTERACTIVE_ROLES } from '../../core/page/snapshot-roles.ts';

/** Roles whose name is their content: text inside them is not repeated as text lines. */
const NAME_FROM_CONTENT = new Set([
  'button', 'link', 'checkbox', 'radio', 'switch', 'option', 'menuitem', 'menuitemcheckbox', 'menuitemradio',
  'tab', 'treeitem', 'heading', 'clickable',
]);
const LANDMARK_ROLES = new Set([
  'banner', 'complementary', 'contentinfo', 'form', 'main', 'navigation', 'region', 'search', 'dialog', 'alertdialog',
]);
/** Tags that may carry an implicit role we emit; everything else needs a role attribute. */
const ROLE_TAGS = new Set([
  'a', 'area', 'button', 'input', 'select', 'textarea', 'summary', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'header', 'footer', 'nav', 'main', 'aside', 'form', 'section', 'dialog', 'search', 'option',
]);
const SKIP_TAGS = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'title', 'svg', 'math', 'canvas', 'video', 'audio', 'object', 'embed']);
/** Skipped tags that can still be one clickable control. */
const DRAWN_TAGS = new Set(['svg', 'canvas', 'video']);
/** Elements whose text joins the surrounding run instead of starting a new line. */
const INLINE_TAGS = new Set([
  'span', 'b', 'i', 'em', 'strong', 'small', 'code', 'abbr', 'cite', 'q', 's', 'u', 'mark', 'sub', 'sup', 'time',
  'font', 'bdi', 'bdo', 'data', 'kbd', 'samp', 'var', 'del', 'ins', 'wbr', 'br', 'img',
]);
const INPUT_ROLE_FALLBACK: Record<string, string> = {
  password: 'textbox', date: 'textbox', 'datetime-local': 'textbox', month: 'textbox', week: 'textbox', time: 'textbox',
  color: 'button', file: 'button',
};
const LABELABLE_TAGS = new Set(['input', 'select', 'textarea', 'button', 'meter', 'output', 'progress']);
const LABELABLE_CONSTRUCTORS = [
  'HTMLInputElement', 'HTMLSelectElement', 'HTMLTextAreaElement', 'HTMLButtonElement', 'HTMLMeterElement', 'HTMLOutputElement', 'HTMLProgressElement',
];
const SECTIONING = 'article, aside, main, nav, section';

const HIDDEN_WORDS: Record<HiddenReason, string> = {
  transparent: 'transparent', 'off-page': 'off the page', clipped: 'clipped', 'tiny-font': 'tiny font', 'same-colour': 'same colour as background',
};

const MAX_TEXT = 200;
const MAX_VALUE = 300;
const MAX_NODES = 20_000;
const MAX_DEPTH = 400;
const PASSWORD_MASK = '********';

interface FrameContext {
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

const collapse = (s: string): string => s.replace(/\s+/g, ' ').trim();
const cap = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function observePage(doc: Document, registry: RefRegistry, options: ObserveOptions): PageObservation {
  const started = performance.now();
  const top = doc.defaultView;
  if (top === null) throw new Error('observePage: document has no window');
  const vw = top.innerWidth;
  const vh = top.innerHeight;
  const nodes: SnapshotNode[] = [];
  const omissions: string[] = [];
  const offscreen = { above: 0, below: 0 };
  const focusedEl = deepActiveElement(doc);
  let focusedRef: string | null = null;
  let stoppedAt: number | null = null;

  // One style cache for the snapshot, shared with the name computation.
  const styles = new Map<Element, CSSStyleDeclaration>();
  const styleOf = (el: Element): CSSStyleDeclaration => {
    let s = styles.get(el);
    if (s === undefined) {
      s = (el.ownerDocument.defaultView ?? top).getComputedStyle(el);
      styles.set(el, s);
    }
    return s;
  };
  const nameOptions = { getComputedStyle: ((el: Element) => styleOf(el)) as typeof window.getComputedStyle, computedStyleSupportsPseudoElements: true };
  const rects = new Map<Element, DOMRect>();
  const rectOf = (el: Element): DOMRect => {
    let r = rects.get(el);
    if (r === undefined) {
      r = el.getBoundingClientRect();
      rects.set(el, r);
    }
    return r;
  };
  /** -1 above the viewport, 0 inside, 1 below; `margin` widens the band (in viewport heights). */
  const placement = (el: Element, frame: FrameContext, margin: number): -1 | 0 | 1 => {
    const r = rectOf(el);
    const t = r.top + frame.dy;
    const b = r.bottom + frame.dy;
    if (b < -margin * vh) return -1;
    if (t > vh + margin * vh) return 1;
    const l = r.left + frame.dx;
    if (margin === 0 && (r.right + frame.dx < 0 || l > vw)) return t < 0 ? -1 : 1;
    return 0;
  };
  const renderedCache = new Map<Element, boolean>();
  const shown = (el: Element): boolean => {
    let v = renderedCache.get(el);
    if (v === undefined) {
      v = isRendered(el);
      renderedCache.set(el, v);
    }
    return v;
  };
  // Text a person cannot see (opacity 0, off the page, clipped away, tiny, the
  // background's colour) is left out of the text lines and counted; a name made
  // of it is kept but says what is visible (name-provenance.ts).
  const perceptibility = createPerceptibility({ styleOf, rectOf });
  const hiddenText = new Map<HiddenReason, number>();
  const noteHidden = (reason: HiddenReason): void => {
    hiddenText.set(reason, (hiddenText.get(reason) ?? 0) + 1);
  };
  /** A run's piece as shown: '' when a person cannot see it (counted). */
  const visiblePart = (part: { data: string; node: Text | null }): string => {
    const { data, node } = part;
    if (node === null || data.trim() === '') return data;
    const parent = node.parentElement;
    if (parent === null || !shown(parent)) return '';
    const hidden = perceptibility.textHidden(node);
    if (hidden === null) return data;
    noteHidden(hidden);
    return '';
  };
  const clickableContext: ClickableContext = { styleOf, rectOf, viewportArea: vw * vh };
  /** The nearest emitted interactive ancestor: a clickable inside it that fills most of it is the same control. */
  let owner: Element | null = null;
  let unreadable = 0;
  let firstUnreadable = '';
  const noteUnreadable = (err: unknown): void => {
    unreadable++;
    if (firstUnreadable === '') firstUnreadable = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  };

  let run: TextRun | null = null;
  let lastLine = '';
  const push = (n: SnapshotNode): void => {
    if (nodes.length >= MAX_NODES) {
      stoppedAt ??= nodes.length;
      return;
    }
    nodes.push(n);
    lastLine = n.name;
  };
  const flush = (): void => {
    const r = run;
    run = null;
    if (r === null) return;
    if (collapse(r.parts.map((p) => p.data).join('')) === '') return;
    // Text far from the viewport is summarized by count, not shown (nor checked: that costs).
    let where: -1 | 0 | 1;
    let inViewport: boolean;
    let text: string;
    try {
      where = placement(r.anchor, r.frame, 1);
      inViewport = placement(r.anchor, r.frame, 0) === 0;
      if (where !== 0 && perceptibility.offPage(r.anchor)) {
        noteHidden('off-page');
        return;
      }
      if (where !== 0) {
        if (where < 0) offscreen.above++;
        else offscreen.below++;
        return;
      }
      text = cap(collapse(r.parts.map(visiblePart).join('')), MAX_TEXT);
    } catch (err) {
      noteUnreadable(err);
      return;
    }
    if (text === '' || text === lastLine) return;
    const n: SnapshotNode = {
      ref: null, kind: 'text', role: 'text', name: text, states: {}, depth: r.depth, inViewport,
    };
    if (r.frame.prefix !== undefined) n.frame = r.frame.prefix;
    push(n);
  };

  const roleOf = (el: Element, tag: string): string | null => {
    const hasRoleAttr = el.hasAttribute('role');
    if (!hasRoleAttr && !ROLE_TAGS.has(tag)) {
      if ((el as HTMLElement).isContentEditable && !(el.parentElement?.isContentEditable ?? false)) return 'textbox';
      return null;
    }
    let role = getRole(el);
    if (tag === 'input' && role === null) role = INPUT_ROLE_FALLBACK[(el as HTMLInputElement).type] ?? null;
    if (!hasRoleAttr) {
      // A header/footer inside a sectioning element is not page-level.
      if ((tag === 'header' || tag === 'footer') && el.parentElement?.closest(SECTIONING)) return null;
      if (tag === 'section' && !el.hasAttribute('aria-label') && !el.hasAttribute('aria-labelledby')) return null;
      if (tag === 'search') role = 'search';
    }
    if (role === null && (el as HTMLElement).isContentEditable && !(el.parentElement?.isContentEditable ?? false)) return 'textbox';
    return role;
  };

  // Chromium answers `element.labels` by scanning the whole tree scope, once per
  // control after every DOM change: quadratic on big forms (2.6 s for 7k controls).
  // Index the labels once per tree scope and hand them to the name computation.
  const labelIndex = new Map<Node, Map<Element, HTMLLabelElement[]>>();
  const labelsOf = (el: Element): HTMLLabelElement[] => {
    const scope = el.getRootNode();
    let index = labelIndex.get(scope);
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
      labelIndex.set(scope, index);
    }
    return index.get(el) ?? [];
  };

  // Serve `labels` from the index for the length of this snapshot, on the
  // prototypes of each window met (iframes have their own); restored in the
  // finally below. Nothing else runs on the page thread in between.
  const patched: Array<() => void> = [];
  const patchedWindows = new Set<Window>();
  const patchLabels = (win: Window): void => {
    if (patchedWindows.has(win)) return;
    patchedWindows.add(win);
    const w = win as unknown as Record<string, { prototype: object } | undefined>;
    for (const ctor of LABELABLE_CONSTRUCTORS) {
      const proto = w[ctor]?.prototype;
      if (proto === undefined) continue;
      const original = Object.getOwnPropertyDescriptor(proto, 'labels');
      if (original === undefined || original.configurable !== true) continue;
      Object.defineProperty(proto, 'labels', { configurable: true, enumerable: original.enumerable ?? true, get(this: Element) { return labelsOf(this); } });
      patched.push(() => Object.defineProperty(proto, 'labels', original));
    }
  };

  const nameOf = (el: Element): string => {
    if (LABELABLE_TAGS.has(el.localName)) patchLabels(el.ownerDocument.defaultView ?? top);
    let name = computeAccessibleName(el, nameOptions);
    name = collapse(name);
    if (name === '') {
      const ph = el.getAttribute('placeholder') ?? el.getAttribute('aria-placeholder');
      if (ph !== null) name = collapse(ph);
    }
    return cap(name, MAX_TEXT);
  };

  const provenance = { rendered: shown, textHidden: (t: Text) => perceptibility.textHidden(t), labelsOf };
  /** Adds what a person sees when the name holds text they cannot see (name-provenance.ts). */
  const markShownText = (n: SnapshotNode, el: Element, nameFromContent: boolean, frame: FrameContext): void => {
    // Like text, names are checked within a viewport of what is on screen (the cost grows with the page otherwise).
    if (placement(el, frame, 1) !== 0) return;
    const seen = shownTextFor(el, n.name, nameFromContent, provenance);
    if (seen === undefined) delete n.shownText;
    else n.shownText = seen;
  };

  const visitChildren = (parent: Node, depth: number, frame: FrameContext, quiet: boolean): void => {
    for (let c = parent.firstChild; c !== null; c = c.nextSibling) visit(c, depth, frame, quiet);
  };

  /**
   * One node; an element the page has made unreadable (a throwing getter, a
   * replaced prototype method) is skipped and counted, never fatal.
   */
  const visit = (node: Node, depth: number, frame: FrameContext, quiet: boolean): void => {
    try {
      visitNode(node, depth, frame, quiet);
    } catch (err) {
      noteUnreadable(err);
    }
  };

  /** `quiet`: inside an element whose name already says its text (button, label, heading). */
  const visitNode = (node: Node, depth: number, frame: FrameContext, quiet: boolean): void => {
    if (stoppedAt !== null) return;
    if (node.nodeType === 3) {
      if (quiet) return;
      const parent = node.parentElement;
      const data = node.nodeValue ?? '';
      if (parent === null || data.trim() === '' && run === null) return;
      if (run === null) {
        if (!shown(parent)) return;
        run = { parts: [], anchor: parent, depth, frame };
      }
      run.parts.push({ data, node: node as Text });
      return;
    }
    if (node.nodeType !== 1) return;
    const el = node as Element;
    const tag = el.localName;
    if (SKIP_TAGS.has(tag)) {
      // A canvas, an <svg> or a video with a click handler is a control as a whole.
      if (DRAWN_TAGS.has(tag)) {
        const clickable = clickableRole(el, tag);
        if (clickable !== null) {
          flush();
          const n = describeClickable(el, tag, clickable, depth, frame);
          push(n);
          if (el === focusedEl) focusedRef = n.ref;
        }
      }
      return;
    }
    if (el.getAttribute('aria-hidden') === 'true') return;
    // No per-element layout query here: every line emitted below checks its own
    // visibility (which covers hidden ancestors), so hidden subtrees cost a walk only.
    if (el.hasAttribute('hidden') && !el.checkVisibility()) return;
    if (depth > MAX_DEPTH) {
      omissions.push(`content nested deeper than ${MAX_DEPTH} levels`);
      stoppedAt = nodes.length;
      return;
    }
    if (tag === 'br') {
      if (run !== null) run.parts.push({ data: ' ', node: null });
      return;
    }
    if (tag === 'iframe' || tag === 'frame') {
      flush();
      visitFrame(el as HTMLIFrameElement, depth, frame);
      return;
    }

    const role = roleOf(el, tag);
    const kind: SnapshotNode['kind'] | null =
      role === null ? null
      : INTERACTIVE_ROLES.has(role) ? 'interactive'
      : role === 'heading' ? 'heading'
      : LANDMARK_ROLES.has(role) ? 'landmark'
      : null;

    // A label that toggles a hidden checkbox, radio or file input is what a person clicks.
    const control = tag === 'label' ? (el as HTMLLabelElement).control : null;
    if (control !== null && kind === null && isToggledByLabel(control) && !isVisible(control) && isVisible(el)) {
      flush();
      const controlRole = roleOf(control, control.localName) ?? 'checkbox';
      const n = describe(control, control.localName, controlRole, 'interactive', depth, frame);
      n.ref = registry.refFor(el, frame.prefix);
      // The hidden control has no name of its own in the layout: the label's text is it.
      if (n.name === '') {
        n.name = visibleName(el);
        markShownText(n, el, true, frame);
      }
      if (control === focusedEl) focusedRef = n.ref;
      push(n);
      withOwner(el, () => walkInside(el, depth + 1, frame, true));
      flush();
      return;
    }

    // No interactive role: a clickable element a person can still use?
    if (kind === null || kind === 'heading') {
      const clickable = clickableRole(el, tag);
      if (clickable !== null) {
        flush();
        const n = describeClickable(el, tag, clickable, depth, frame);
        push(n);
        if (el === focusedEl) focusedRef = n.ref;
        withOwner(el, () => walkInside(el, depth + 1, frame, true));
        flush();
        return;
      }
    }

    const inline = INLINE_TAGS.has(tag) && kind === null;
    if (!inline) flush();

    let hiddenControl = false;
    if (kind !== null && role !== null) {
      const r = rectOf(el);
      const zeroSize = r.width === 0 && r.height === 0;
      // A zero-size control is an invisible one; its own text is not shown either.
      hiddenControl = zeroSize && kind === 'interactive';
      if (kind === 'interactive' ? isVisible(el) : shown(el) && !zeroSize) {
        const n = describe(el, tag, role, kind, depth, frame);
        push(n);
        if (el === focusedEl) focusedRef = n.ref;
        if (tag === 'select' || tag === 'textarea' || tag === 'input') return;
        const inside = () => walkInside(el, depth + 1, frame, quiet || NAME_FROM_CONTENT.has(role) || n.kind === 'interactive' && role !== 'listbox' && role !== 'combobox');
        if (kind === 'interactive') withOwner(el, inside);
        else inside();
        flush();
        return;
      }
    }
    // A label's text is the name of its control, which is emitted with it.
    const isLabel = control !== null;
    walkInside(el, depth, frame, quiet || isLabel || hiddenControl);
    if (!inline) flush();
  };

  const withOwner = (el: Element, fn: () => void): void => {
    const before = owner;
    owner = el;
    try {
      fn();
    } finally {
      owner = before;
    }
  };

  /** The role of a clickable element without an interactive role, or null when it is not one. */
  const clickableRole = (el: Element, tag: string): string | null => {
    if (tag === 'label' || tag === 'option' || tag === 'slot') return null;
    const signals = clickSignals(el, clickableContext);
    if (signals.length === 0) return null;
    if (!isVisible(el) || !isOneControl(el, signals, clickableContext)) return null;
    if (owner !== null) {
      // Nested duplicates collapse: an inner clickable filling most of its control is that control.
      const o = rectOf(owner);
      const r = rectOf(el);
      if (r.width * r.height >= 0.5 * o.width * o.height) return null;
    }
    return impliedRole(el);
  };

  const describeClickable = (el: Element, tag: string, role: string, depth: number, frame: FrameContext): SnapshotNode => {
    let name = nameOf(el);
    let guessed = false;
    if (name === '') name = visibleName(el);
    if (name === '') {
      name = guessedIconName(el);
      guessed = name !== '';
    }
    const n: SnapshotNode = {
      ref: registry.refFor(el, frame.prefix),
      kind: 'interactive',
      role,
      name,
      states: statesOf(el, tag, role, el === focusedEl),
      depth,
      inViewport: placement(el, frame, 0) === 0,
    };
    if (guessed) n.nameGuessed = true;
    else markShownText(n, el, true, frame);
    // A custom dropdown over a hidden native <select>: the trigger is the combobox.
    const select = hiddenSelectBeside(el);
    if (select !== null) {
      n.role = 'combobox';
      n.value = Array.from(select.selectedOptions, (o) => collapse(o.label)).join(', ');
      n.options = Array.from(select.options, (o) => collapse(o.label));
    }
    if (frame.prefix !== undefined) n.frame = frame.prefix;
    return n;
  };

  /** Children in rendered order: the shadow tree when there is one, slots resolved. */
  const walkInside = (el: Element, depth: number, frame: FrameContext, quiet: boolean): void => {
    if (el.localName === 'slot') {
      const assigned = (el as HTMLSlotElement).assignedNodes({ flatten: true });
      if (assigned.length > 0) for (const a of assigned) visit(a, depth, frame, quiet);
      else visitChildren(el, depth, frame, quiet);
      return;
    }
    const root = el.shadowRoot;
    if (root !== null) {
      visitChildren(root, depth, frame, quiet);
      return;
    }
    if (hasClosedShadowRoot(el)) {
      omissions.push(`closed shadow root in <${describeElement(el)}>: its content cannot be read`);
    }
    visitChildren(el, depth, frame, quiet);
  };

  const visitFrame = (iframe: HTMLIFrameElement, depth: number, frame: FrameContext): void => {
    const label = collapse(iframe.title || iframe.name || '');
    let inner: Document | null = null;
    try {
      inner = iframe.contentDocument;
    } catch {
      inner = null;
    }
    if (inner === null || inner.defaultView === null) {
      omissions.push(`cross-origin frame${label ? ` "${label}"` : ''} (${iframe.src || 'no src'}): its content cannot be read`);
      return;
    }
    if (inner.body === null) return;
    const prefix = registry.frameIdFor(iframe);
    const r = rectOf(iframe);
    const inFrame: FrameContext = {
      win: inner.defaultView,
      prefix,
      dx: frame.dx + r.left + iframe.clientLeft,
      dy: frame.dy + r.top + iframe.clientTop,
    };
    const n: SnapshotNode = {
      ref: null, kind: 'landmark', role: 'iframe', name: label, states: {}, depth,
      inViewport: placement(iframe, frame, 0) === 0,
    };
    if (frame.prefix !== undefined) n.frame = frame.prefix;
    push(n);
    visitChildren(inner.body, depth + 1, inFrame, false);
    flush();
  };

  // Whether each form has a submit control, looked up once per form in this snapshot (a large form has many controls).
  const formHasSubmit = new Map<HTMLFormElement, boolean>();
  const describe = (el: Element, tag: string, role: string, kind: SnapshotNode['kind'], depth: number, frame: FrameContext): SnapshotNode => {
    const n: SnapshotNode = {
      ref: kind === 'interactive' ? registry.refFor(el, frame.prefix) : null,
      kind,
      role,
      name: nameOf(el),
      states: kind === 'interactive' ? statesOf(el, tag, role, el === focusedEl) : {},
      depth,
      inViewport: placement(el, frame, 0) === 0,
    };
    if (kind !== 'landmark') markShownText(n, el, NAME_FROM_CONTENT.has(role), frame);
    if (kind === 'heading') n.level = headingLevel(el, tag);
    if (kind === 'interactive') {
      const value = valueOf(el, tag, role);
      if (value !== undefined) n.value = value;
      if (tag === 'select') n.options = Array.from((el as HTMLSelectElement).options, (o) => collapse(o.label));
      if (tag === 'input') n.inputType = (el as HTMLInputElement).type;
      Object.assign(n, formFacts(el, tag, formHasSubmit));
      if (tag === 'a' || tag === 'area') {
        const href = (el as HTMLAnchorElement).href;
        if (href) n.href = href;
      }
    }
    if (frame.prefix !== undefined) n.frame = frame.prefix;
    return n;
  };

  const topFrame: FrameContext = { win: top, prefix: undefined, dx: 0, dy: 0 };
  try {
    if (doc.body !== null) visitChildren(doc.body, 0, topFrame, false);
    flush();
  } finally {
    for (const restore of patched) restore();
  }
  if (hiddenText.size > 0) {
    let total = 0;
    for (const k of hiddenText.values()) total += k;
    const why = [...hiddenText].map(([reason, k]) => `${HIDDEN_WORDS[reason]} ${k}`).join(', ');
    omissions.push(`${total} piece${total === 1 ? '' : 's'} of text a person cannot see left out (${why})`);
  }
  if (unreadable > 0) omissions.push(`${unreadable} element${unreadable === 1 ? ' was' : 's were'} unreadable and skipped (${cap(firstUnreadable, 120)})`);
  if (stoppedAt !== null && !omissions.some((o) => o.startsWith('content nested'))) {
    omissions.push(`stopped after ${stoppedAt} lines: the page is too large to list in full`);
  }

  const root = doc.scrollingElement ?? doc.documentElement;
  let obs: PageObservation = {
    url: doc.URL,
    title: doc.title,
    nodes,
    focusedRef,
    offscreen,
    omissions,
    scroll: { y: top.scrollY, maxY: Math.max(0, root.scrollHeight - vh), viewportHeight: vh },
    tookMs: 0,
  };
  if (options.maxChars !== undefined) {
    obs = truncateObservation(obs, { maxChars: options.maxChars, lastActedRef: options.lastActedRef ?? null });
  }
  obs.tookMs = Math.max(0, performance.now() - started);
  return obs;
}

/** Inputs a label toggles with a click (a person clicks the label when the box itself is hidden). */
function isToggledByLabel(control: Element): boolean {
  if (control.localName !== 'input') return false;
  const type = (control as HTMLInputElement).type;
  return type === 'checkbox' || type === 'radio' || type === 'file';
}

/** A native <select> that is hidden next to (or inside) the element: the custom dropdown's model. */
function hiddenSelectBeside(el: Element): HTMLSelectElement | null {
  const scope = el.parentElement;
  if (scope === null) return null;
  for (const sel of Array.from(scope.querySelectorAll('select'))) {
    if (sel.parentElement !== scope && sel.parentElement !== el) continue;
    return isVisible(sel) ? null : sel;
  }
  return null;
}

/** Chrome gives content scripts a way to see closed roots; elsewhere a custom element that renders but has no children is the tell. */
function hasClosedShadowRoot(el: Element): boolean {
  if (!el.localName.includes('-')) return false;
  const dom = (globalThis as unknown as { chrome?: { dom?: { openOrClosedShadowRoot?: (e: Element) => ShadowRoot | null } } }).chrome?.dom;
  if (dom?.openOrClosedShadowRoot !== undefined) {
    try {
      return dom.openOrClosedShadowRoot(el) !== null;
    } catch {
      return false;
    }
  }
  if (el.firstChild !== null) return false;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
}

function describeElement(el: Element): string {
  return el.localName + (el.id ? `#${el.id}` : '');
}

function headingLevel(el: Element, tag: string): number {
  const m = /^h([1-6])$/.exec(tag);
  if (m !== null) return Number(m[1]);
  const aria = Number(el.getAttribute('aria-level'));
  return Number.isInteger(aria) && aria >= 1 && aria <= 6 ? aria : 2;
}

const CHECKABLE = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);

function statesOf(el: Element, tag: string, role: string, focused: boolean): ElementStates {
  const s: ElementStates = {};
  const aria = (name: string): string | null => el.getAttribute(name);
  if (CHECKABLE.has(role)) {
    if (tag === 'input' && (el as HTMLInputElement).type !== 'button') {
      const input = el as HTMLInputElement;
      s.checked = input.indeterminate ? 'mixed' : input.checked;
    } else {
      const c = aria('aria-checked');
      s.checked = c === 'mixed' ? 'mixed' : c === 'true';
    }
  }
  if (tag === 'option' ? (el as HTMLOptionElement).selected : aria('aria-selected') === 'true') s.selected = true;
  const expanded = aria('aria-expanded');
  if (expanded === 'true' || expanded === 'false') s.expanded = expanded === 'true';
  else if (tag === 'summary' && el.parentElement?.localName === 'details') s.expanded = (el.parentElement as HTMLDetailsElement).open;
  if (el.matches(':disabled') || el.closest('[aria-disabled="true"]') !== null) s.disabled = true;
  if ((el as HTMLInputElement).required === true || aria('aria-required') === 'true') s.required = true;
  if (aria('aria-invalid') === 'true' || aria('aria-invalid') === 'grammar' || aria('aria-invalid') === 'spelling' || safeMatches(el, ':user-invalid')) s.invalid = true;
  if (((tag === 'input' || tag === 'textarea') && (el as HTMLInputElement).readOnly) || aria('aria-readonly') === 'true') s.readonly = true;
  if (focused) s.focused = true;
  return s;
}

/**
 * What the sensitivity gate needs to know about forms: the autocomplete token
 * (secret fields), whether the element is in a form, and whether activating
 * or changing it submits that form.
 */
function formFacts(el: Element, tag: string, formHasSubmit: Map<HTMLFormElement, boolean>): Pick<SnapshotNode, 'autocomplete' | 'inForm' | 'submits'> {
  const out: Pick<SnapshotNode, 'autocomplete' | 'inForm' | 'submits'> = {};
  const auto = el.getAttribute('autocomplete');
  if (auto && auto !== 'on' && auto !== 'off') out.autocomplete = auto.slice(0, 100);
  const form = (el as HTMLInputElement).form ?? el.closest('form');
  if (!form) return out;
  out.inForm = true;
  if (tag === 'button') out.submits = (el as HTMLButtonElement).type === 'submit';
  else if (tag === 'input') {
    const type = (el as HTMLInputElement).type;
    if (type === 'submit' || type === 'image') out.submits = true;
    else if (type === 'checkbox' || type === 'radio') out.submits = changeSubmits(el, form, formHasSubmit);
  } else if (tag === 'select') out.submits = changeSubmits(el, form, formHasSubmit);
  return out;
}

/** A change handler that names submit, or a form with no way to submit it but its controls. */
function changeSubmits(el: Element, form: HTMLFormElement, formHasSubmit: Map<HTMLFormElement, boolean>): boolean {
  if (/submit/i.test(el.getAttribute('onchange') ?? '') || /submit/i.test(el.getAttribute('onclick') ?? '')) return true;
  let has = formHasSubmit.get(form);
  if (has === undefined) {
    has = form.querySelector('button:not([type]), button[type=submit], input[type=submit], input[type=image]') !== null;
    formHasSubmit.set(form, has);
  }
  return !has;
}

function safeMatches(el: Element, selector: string): boolean {
  try {
    return el.matches(selector);
  } catch {
    return false;
  }
}

function valueOf(el: Element, tag: string, role: string): string | undefined {
  if (tag === 'input') {
    const input = el as HTMLInputElement;
    if (CHECKABLE.has(role) || input.type === 'submit' || input.type === 'button' || input.type === 'reset' || input.type === 'image') return undefined;
    // Secrets never leave the page: the model sees only that there is one.
    if (input.type === 'password') return input.value === '' ? '' : PASSWORD_MASK;
    return cap(input.value, MAX_VALUE);
  }
  if (tag === 'textarea') return cap((el as HTMLTextAreaElement).value, MAX_VALUE);
  if (tag === 'select') {
    const sel = el as HTMLSelectElement;
    return Array.from(sel.selectedOptions, (o) => collapse(o.label)).join(', ');
  }
  if ((el as HTMLElement).isContentEditable) return cap(collapse(el.textContent ?? ''), MAX_VALUE);
  const text = el.getAttribute('aria-valuetext') ?? el.getAttribute('aria-valuenow');
  if (text !== null) return cap(collapse(text), MAX_VALUE);
  return undefined;
}
