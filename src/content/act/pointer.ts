/**
 * Pointer and mouse, as a real mouse produces them. A mouse does not hit the
 * element that holds a role: it hits whatever is topmost at the point under
 * the cursor. So a click hit-tests visible points of the target
 * (`elementFromPoint`, through open shadow roots) and sends the pointer and
 * mouse sequence to the topmost element there when that element is the
 * target, is inside it, or is inside one of its labels (a styled box over a
 * hidden checkbox). When something else covers every point tried, the click
 * fails with `obscured` and names the cover. A popup the control opened
 * (popups.ts) is the control at work, not a cover.
 */
import { describeElement } from '../dom/describe-element.ts';
import { deepActiveElement } from '../dom/focus.ts';
import { ActionFailure, realmOf, type Run } from './act-context.ts';
import { controlInTheWay } from './act-check.ts';
import { watchPopups, type PopupWatch } from './popups.ts';
import { isVisible } from '../dom/visibility.ts';
import { scrollIntoViewIfNeeded } from './targets.ts';
import { clickAsApproved } from './effect-check.ts';

interface Point { clientX: number; clientY: number }

/** Where a click lands: the element the events go to and the point they carry. */
export interface Landing { el: Element; at: Point }

/** Fractions of the box tried in order: the centre first, then inset corners. */
const PROBES: ReadonlyArray<readonly [number, number]> = [[0.5, 0.5], [0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75], [0.5, 0.15], [0.5, 0.85]];

/** The parent across a shadow boundary (host) in the flat tree. */
function flatParent(node: Element): Element | null {
  if (node.parentElement) return node.parentElement;
  const root = node.getRootNode() as Partial<ShadowRoot>;
  return root.host ?? null;
}

function flatContains(outer: Element, inner: Element): boolean {
  for (let cur: Element | null = inner; cur !== null; cur = flatParent(cur)) if (cur === outer) return true;
  return false;
}

/** The deepest element at a point of `doc`'s viewport, through open shadow roots. */
function topmostAt(doc: Document, x: number, y: number): Element | null {
  if (typeof doc.elementFromPoint !== 'function') return null;
  let hit = doc.elementFromPoint(x, y);
  for (let i = 0; hit?.shadowRoot && i < 32; i++) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (inner === null || inner === hit) break;
    hit = inner;
  }
  return hit;
}

/** The hit counts as a click on `el`: it is `el`, inside it, or inside a label of it. */
function reaches(hit: Element, el: Element): boolean {
  if (flatContains(el, hit)) return true;
  const labels = (el as HTMLInputElement).labels;
  if (labels) for (const label of Array.from(labels)) if (flatContains(label, hit)) return true;
  return false;
}

type Probe = { landing: Landing } | { cover: Element } | { inTheWay: Element };

/**
 * Hit-tests visible points of `el` in order. Points outside the viewport are
 * not tried; when the engine cannot hit-test at all (no layout), the element
 * itself receives the events. `strict` (an approved action): a point whose
 * topmost element is a different link, button or form control inside the
 * target does not count.
 */
function probe(el: Element, strict: boolean): Probe {
  const doc = el.ownerDocument;
  const view = doc.defaultView;
  const rects = Array.from(el.getClientRects()).filter((r) => r.width > 0 && r.height > 0);
  const centre = (r: DOMRect | undefined): Point => (r ? { clientX: r.left + r.width / 2, clientY: r.top + r.height / 2 } : { clientX: 0, clientY: 0 });
  if (view === null || rects.length === 0) return { landing: { el, at: centre(el.getBoundingClientRect()) } };
  let cover: Element | null = null;
  let inTheWay: Element | null = null;
  for (const r of rects.slice(0, 4)) {
    for (const [fx, fy] of PROBES) {
      const x = r.left + r.width * fx;
      const y = r.top + r.height * fy;
      if (x < 0 || y < 0 || x >= view.innerWidth || y >= view.innerHeight) continue;
      const hit = topmostAt(doc, x, y);
      if (hit === null) continue;
      const at = { clientX: x, clientY: y };
      if (reaches(hit, el)) {
        const other = strict && flatContains(el, hit) ? controlInTheWay(hit, el) : null;
        if (other === null) return { landing: { el: hit, at } };
        inTheWay ??= other;
        continue;
      }
      // A hit on an ancestor means the target lets the pointer through
      // (pointer-events: none): the event reaches the ancestor through it anyway.
      if (flatContains(hit, el)) return { landing: { el, at } };
      cover ??= hit;
    }
  }
  if (inTheWay !== null) return { inTheWay };
  return cover === null ? { landing: { el, at: centre(rects[0]) } } : { cover };
}

/** Finds the landing of a click on `el`; refuses (`not_run`, `obscured`) when no point tried reaches it. */
export function landingOf(el: Element, strict = false): Landing {
  const found = probe(el, strict);
  if ('landing' in found) return found.landing;
  if ('inTheWay' in found) {
    throw new ActionFailure('not_run', `a different control, <${describeElement(found.inTheWay)}>, is inside <${describeElement(el)}> at every point the pointer could land; not clicked`);
  }
  throw new ActionFailure('obscured', `<${describeElement(el)}> is covered by <${describeElement(found.cover)}> at every point tried; close or move what covers it first`);
}

/** What covers `el` at every point a pointer could land on it now, or null (the snapshot marks such controls). */
export function coverOf(el: Element): Element | null {
  const found = probe(el, false);
  return 'cover' in found ? found.cover : null;
}

export function mouse(el: Element, run: Run, type: string, extra: MouseEventInit = {}, at?: Point): boolean {
  const R = realmOf(el, run.win);
  const bubbles = type !== 'mouseenter' && type !== 'mouseleave';
  const init: MouseEventInit = {
    bubbles, cancelable: bubbles, composed: true, view: el.ownerDocument.defaultView, button: 0, ...(at ?? centreOf(el)), ...extra,
  };
  return el.dispatchEvent(new R.MouseEvent(type, init));
}

function pointer(el: Element, run: Run, type: string, at: Point, extra: PointerEventInit = {}): boolean {
  const R = realmOf(el, run.win);
  const bubbles = type !== 'pointerenter' && type !== 'pointerleave';
  const init: PointerEventInit = {
    bubbles, cancelable: bubbles, composed: true, view: el.ownerDocument.defaultView,
    pointerId: 1, pointerType: 'mouse', isPrimary: true, width: 1, height: 1, button: 0, ...at, ...extra,
  };
  // Older engines without PointerEvent still get the mouse events.
  return typeof R.PointerEvent === 'function' ? el.dispatchEvent(new R.PointerEvent(type, init)) : true;
}

function centreOf(el: Element): Point {
  const r = el.getBoundingClientRect();
  return { clientX: r.left + r.width / 2, clientY: r.top + r.height / 2 };
}

/** Where the (virtual) mouse was last, per document: leave and enter events depend on it. */
const lastHovered = new WeakMap<Document, WeakRef<Element>>();

/** `el` and its flat-tree ancestors, innermost first. */
function chain(el: Element): Element[] {
  const out: Element[] = [];
  for (let c: Element | null = el; c !== null; c = flatParent(c)) out.push(c);
  return out;
}

/**
 * The cursor moves from where it was onto `el`, as a mouse does: out/leave
 * for what it leaves, over/enter for every element it enters (enter events
 * do not bubble, so a menu listening on its container needs its own), then
 * a move. Menus that open on hover expect exactly this.
 */
export function hoverSequence(el: Element, run: Run, at: Point = centreOf(el)): void {
  const doc = el.ownerDocument;
  const before = lastHovered.get(doc)?.deref();
  const idle = { button: -1, buttons: 0 };
  if (before !== el) {
    const from = before !== undefined && before.isConnected ? chain(before) : [];
    const to = chain(el);
    if (before !== undefined && from.length > 0) {
      const leaving = from.filter((e) => !to.includes(e));
      pointer(before, run, 'pointerout', at, idle);
      for (const e of leaving) pointer(e, run, 'pointerleave', at, idle);
      mouse(before, run, 'mouseout', { buttons: 0, relatedTarget: el }, at);
      for (const e of leaving) mouse(e, run, 'mouseleave', { buttons: 0, relatedTarget: el }, at);
    }
    // Entering from outside the page: every element down to the target, except the root and body.
    const entering = (from.length > 0 ? to.filter((e) => !from.includes(e)) : to.filter((e) => e.localName !== 'html' && e.localName !== 'body')).reverse();
    pointer(el, run, 'pointerover', at, idle);
    for (const e of entering) pointer(e, run, 'pointerenter', at, idle);
    mouse(el, run, 'mouseover', { buttons: 0 }, at);
    for (const e of entering) mouse(e, run, 'mouseenter', { buttons: 0 }, at);
  }
  pointer(el, run, 'pointermove', at, idle);
  mouse(el, run, 'mousemove', { buttons: 0 }, at);
  lastHovered.set(doc, new WeakRef(el));
}

/** Hover over the target's landing point (scrolled into view first). */
export function hoverOver(el: Element, run: Run): Landing {
  scrollIntoViewIfNeeded(el);
  const landing = landingOf(el, run.strictHits === true);
  hoverSequence(landing.el, run, landing.at);
  return landing;
}

/**
 * One click as a mouse produces it, on the landing element. A synthetic
 * mousedown has no default action, so focus is moved here unless the page
 * cancelled the mousedown. `landing` skips the hover and hit-test (the second
 * click of a double click lands where the first did).
 */
export function clickSequence(el: Element, run: Run, detail: number, landing?: Landing): Landing {
  // Before the hover: a menu that opens on hover is the control's popup too.
  const popups = run.strictHits ? watchPopups(el) : null;
  const where = landing ?? hoverOver(el, run);
  const target = where.el.isConnected ? where.el : el;
  const at = where.at;
  const downOk = pointer(target, run, 'pointerdown', at, { buttons: 1 }) && mouse(target, run, 'mousedown', { buttons: 1, detail }, at);
  if (downOk) focusForClick(target);
  pointer(target, run, 'pointerup', at, { buttons: 0 });
  mouse(target, run, 'mouseup', { buttons: 0, detail }, at);
  // The page's pointer handlers have run: what the click would follow or submit is checked now,
  // and what is under the pointer at the click point (a cover that appeared on hover).
  run.check?.('while the pointer was down');
  if (popups !== null) underPointer(el, at, popups);
  // Untrusted click events still run activation behaviour: links follow,
  // checkboxes toggle, submit buttons submit. An approved one is checked again at that moment.
  if (run.check) clickAsApproved(target, { ...run, check: run.check }, { buttons: 0, detail, ...at });
  else mouse(target, run, 'click', { buttons: 0, detail }, at);
  return where;
}

/**
 * Throws `not_run` when the topmost element at the click point is not `el`,
 * a part of it without activation behaviour, or a popup the press opened.
 */
function underPointer(el: Element, at: Point, popups: PopupWatch): void {
  // The control answered the press and went away (a menu that closes on its choice, on mouseup):
  // what the pointer is over now was not pressed, and the click still goes to the control.
  if (!el.isConnected || !isVisible(el)) return;
  const hit = topmostAt(el.ownerDocument, at.clientX, at.clientY);
  if (hit === null) return;
  if (popups.belongsToControl(hit)) return;
  if (reaches(hit, el) && !(flatContains(el, hit) && controlInTheWay(hit, el) !== null)) return;
  if (flatContains(hit, el)) return; // the target lets the pointer through to an ancestor (pointer-events: none)
  throw new ActionFailure('not_run', `<${describeElement(hit)}> is under the pointer at the click point now, not <${describeElement(el)}>; not clicked`);
}

function focusForClick(el: Element): void {
  // The nearest focusable ancestor receives focus, as with a real click.
  const focusable = el.closest?.('a[href], button, input, select, textarea, [tabindex], [contenteditable=""], [contenteditable="true"]') as HTMLElement | null;
  if (focusable && deepActiveElement(el.ownerDocument) !== focusable) focusable.focus({ preventScroll: true });
}
