/**
 * The walk: the rendered (flat) tree of a document, through open shadow
 * roots, slots and same-origin iframes, emitting one node per interactive
 * element, heading, landmark, clickable element and short visible text run.
 * An element the page has made unreadable is skipped and counted, never fatal.
 */
import type { SnapshotNode } from '../../core/page/observation.ts';
import { INTERACTIVE_ROLES } from '../../core/page/snapshot-roles.ts';
import { isVisible } from '../dom/visibility.ts';
import { visibleName } from './name-hints.ts';
import { clickableRole, describeClickable } from './clickable-node.ts';
import { describe, markShownText, NAME_FROM_CONTENT, roleOf } from './describe-node.ts';
import { visitFrame } from './frames.ts';
import { wrappedNativeControl } from './wrapped-control.ts';
import type { FrameContext, SnapshotSession } from './snapshot-session.ts';

const LANDMARK_ROLES = new Set([
  'banner', 'complementary', 'contentinfo', 'form', 'main', 'navigation', 'region', 'search', 'dialog', 'alertdialog',
]);
const SKIP_TAGS = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'title', 'svg', 'math', 'canvas', 'video', 'audio', 'object', 'embed']);
/** Skipped tags that can still be one clickable control. */
const DRAWN_TAGS = new Set(['svg', 'canvas', 'video']);
/** Elements whose text joins the surrounding run instead of starting a new line. */
const INLINE_TAGS = new Set([
  'span', 'b', 'i', 'em', 'strong', 'small', 'code', 'abbr', 'cite', 'q', 's', 'u', 'mark', 'sub', 'sup', 'time',
  'font', 'bdi', 'bdo', 'data', 'kbd', 'samp', 'var', 'del', 'ins', 'wbr', 'br', 'img',
]);
const MAX_DEPTH = 400;

type Kind = SnapshotNode['kind'];

function kindOf(role: string | null): Kind | null {
  if (role === null) return null;
  if (INTERACTIVE_ROLES.has(role)) return 'interactive';
  if (role === 'heading') return 'heading';
  if (LANDMARK_ROLES.has(role)) return 'landmark';
  return null;
}

export class SnapshotWalker {
  /** The nearest emitted interactive ancestor: a clickable inside it that fills most of it is the same control. */
  private owner: Element | null = null;
  /** Native controls that a wrapping widget's line stands for (wrapped-control.ts). */
  private readonly absorbed = new WeakSet<Element>();

  constructor(private readonly s: SnapshotSession) {}

  readonly visitChildren = (parent: Node, depth: number, frame: FrameContext, quiet: boolean): void => {
    for (let c = parent.firstChild; c !== null; c = c.nextSibling) this.visit(c, depth, frame, quiet);
  };

  /** One node; an element the page has made unreadable (a throwing getter, a replaced prototype method) is counted. */
  private visit(node: Node, depth: number, frame: FrameContext, quiet: boolean): void {
    try {
      this.visitNode(node, depth, frame, quiet);
    } catch (err) {
      this.s.noteUnreadable(err);
    }
  }

  /** `quiet`: inside an element whose name already says its text (button, label, heading). */
  private visitNode(node: Node, depth: number, frame: FrameContext, quiet: boolean): void {
    const s = this.s;
    if (s.stoppedAt !== null) return;
    if (node.nodeType === 3) {
      if (!quiet) s.addText(node as Text, depth, frame);
      return;
    }
    if (node.nodeType !== 1) return;
    const el = node as Element;
    const tag = el.localName;
    if (SKIP_TAGS.has(tag)) {
      // A canvas, an <svg> or a video with a click handler is a control as a whole.
      if (DRAWN_TAGS.has(tag)) this.emitClickable(el, tag, depth, frame);
      return;
    }
    if (el.getAttribute('aria-hidden') === 'true') return;
    // No per-element layout query here: every line emitted below checks its own
    // visibility (which covers hidden ancestors), so hidden subtrees cost a walk only.
    if (el.hasAttribute('hidden') && !el.checkVisibility()) return;
    if (depth > MAX_DEPTH) {
      s.omissions.push(`content nested deeper than ${MAX_DEPTH} levels`);
      s.stoppedAt = s.nodes.length;
      return;
    }
    if (tag === 'br') {
      s.addBreak();
      return;
    }
    if (tag === 'iframe' || tag === 'frame') {
      s.flush();
      visitFrame(s, el as HTMLIFrameElement, depth, frame, this.visitChildren);
      return;
    }
    this.visitElement(el, tag, depth, frame, quiet);
  }

  private visitElement(el: Element, tag: string, depth: number, frame: FrameContext, quiet: boolean): void {
    const s = this.s;
    // Already given as its wrapping widget's line: only its content remains, which the widget's name says.
    if (this.absorbed.has(el)) return;
    const role = roleOf(el, tag);
    const kind = kindOf(role);

    // A label that toggles a hidden checkbox, radio or file input is what a person clicks.
    const control = tag === 'label' ? (el as HTMLLabelElement).control : null;
    if (control !== null && kind === null && isToggledByLabel(control) && !isVisible(control) && isVisible(el)) {
      this.emitLabelForHiddenControl(el, control, depth, frame);
      return;
    }

    // No interactive role: a clickable element a person can still use?
    if ((kind === null || kind === 'heading') && this.emitClickable(el, tag, depth, frame)) {
      this.withOwner(el, () => this.walkInside(el, depth + 1, frame, true));
      s.flush();
      return;
    }

    const inline = INLINE_TAGS.has(tag) && kind === null;
    if (!inline) s.flush();

    let hiddenControl = false;
    if (kind !== null && role !== null) {
      const r = s.rectOf(el);
      const zeroSize = r.width === 0 && r.height === 0;
      // A zero-size control is an invisible one; its own text is not shown either.
      hiddenControl = zeroSize && kind === 'interactive';
      if (kind === 'interactive' ? isVisible(el) : s.shown(el) && !zeroSize) {
        const n = describe(s, el, tag, role, kind, depth, frame);
        if (kind === 'interactive') this.absorbWrapped(el, role, n, frame);
        s.push(n);
        if (el === s.focusedEl) s.focusedRef = n.ref;
        if (tag === 'select' || tag === 'textarea' || tag === 'input') return;
        const inside = () => this.walkInside(el, depth + 1, frame, quiet || NAME_FROM_CONTENT.has(role) || n.kind === 'interactive' && role !== 'listbox' && role !== 'combobox');
        if (kind === 'interactive') this.withOwner(el, inside);
        else inside();
        s.flush();
        return;
      }
    }
    // A label's text is the name of its control, which is emitted with it.
    const isLabel = control !== null;
    this.walkInside(el, depth, frame, quiet || isLabel || hiddenControl);
    if (!inline) s.flush();
  }

  /** A tab (menu item, option) that wraps one same-named link or button is that link: its ref and href, the widget's role. */
  private absorbWrapped(el: Element, role: string, n: SnapshotNode, frame: FrameContext): void {
    const inner = wrappedNativeControl(el, role, n.name);
    if (inner === null) return;
    n.ref = this.s.registry.refFor(inner, frame.prefix);
    if (inner.localName === 'a') {
      const href = (inner as HTMLAnchorElement).href;
      if (href) n.href = href;
    }
    if (inner === this.s.focusedEl) this.s.focusedRef = n.ref;
    this.absorbed.add(inner);
  }

  /** The label stands for its hidden control: the control's node, with the label's ref. */
  private emitLabelForHiddenControl(el: Element, control: HTMLElement, depth: number, frame: FrameContext): void {
    const s = this.s;
    s.flush();
    const controlRole = roleOf(control, control.localName) ?? 'checkbox';
    const n = describe(s, control, control.localName, controlRole, 'interactive', depth, frame);
    n.ref = s.registry.refFor(el, frame.prefix);
    // The hidden control has no name of its own in the layout: the label's text is it.
    if (n.name === '') {
      n.name = visibleName(el);
      markShownText(s, n, el, true, frame);
    }
    if (control === s.focusedEl) s.focusedRef = n.ref;
    s.push(n);
    this.withOwner(el, () => this.walkInside(el, depth + 1, frame, true));
    s.flush();
  }

  /** Emits the element as a clickable control when it is one; says whether it did. */
  private emitClickable(el: Element, tag: string, depth: number, frame: FrameContext): boolean {
    const s = this.s;
    const role = clickableRole(s, el, tag, this.owner);
    if (role === null) return false;
    s.flush();
    const n = describeClickable(s, el, tag, role, depth, frame);
    s.push(n);
    if (el === s.focusedEl) s.focusedRef = n.ref;
    return true;
  }

  private withOwner(el: Element, fn: () => void): void {
    const before = this.owner;
    this.owner = el;
    try {
      fn();
    } finally {
      this.owner = before;
    }
  }

  /** Children in rendered order: the shadow tree when there is one, slots resolved. */
  private walkInside(el: Element, depth: number, frame: FrameContext, quiet: boolean): void {
    if (el.localName === 'slot') {
      const assigned = (el as HTMLSlotElement).assignedNodes({ flatten: true });
      if (assigned.length > 0) for (const a of assigned) this.visit(a, depth, frame, quiet);
      else this.visitChildren(el, depth, frame, quiet);
      return;
    }
    const root = el.shadowRoot;
    if (root !== null) {
      this.visitChildren(root, depth, frame, quiet);
      return;
    }
    if (hasClosedShadowRoot(el)) {
      this.s.omissions.push(`closed shadow root in <${describeElement(el)}>: its content cannot be read`);
    }
    this.visitChildren(el, depth, frame, quiet);
  }
}

/** Inputs a label toggles with a click (a person clicks the label when the box itself is hidden). */
function isToggledByLabel(control: Element): boolean {
  if (control.localName !== 'input') return false;
  const type = (control as HTMLInputElement).type;
  return type === 'checkbox' || type === 'radio' || type === 'file';
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
