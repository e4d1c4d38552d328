/**
 * Clickable elements that have no ARIA role: what a person can click on a
 * page built from <div>s and <span>s. Every signal is generic (no rule reads
 * a page's wording):
 *   - a click-like listener, marked by the main-world script
 *     (main-world/listener-marks.iife.ts) — trusted only as "may be clickable";
 *   - `onclick`-like attributes and framework attributes (`jsaction`,
 *     `ng-click`, `v-on:click`, `@click`, `x-on:click`, `hx-get`, …);
 *   - a pointer cursor, on the outermost element where the cursor changes
 *     (children inherit it, so only the element that sets it counts);
 *   - `tabindex ≥ 0` on an element that is not focusable by nature.
 * Delegated listeners (one handler on a container, as React does at its
 * root) mark only the container: such containers are recognised by size, by
 * how many controls they hold, and by holding the whole document, and
 * rejected; their items are found by their own signals.
 *
 * The role is `clickable` unless the element implies a better one (an <a>
 * without href is a link; `aria-pressed` a button; `aria-checked` a checkbox).
 */
import * as z from 'zod';

/** Attribute set by the main-world script; see listener-marks.iife.ts. */
export const LISTENER_MARK = 'data-apprentice-listens';

/** A mark is page-writable data: a short list of known event types, or ignored. */
const MarkSchema = z.string().max(120).transform((s) => s.split(' ').filter((t) => KNOWN_TYPES.has(t)));
const KNOWN_TYPES = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'touchstart', 'dblclick', 'auxclick']);

const HANDLER_ATTRIBUTES = ['onclick', 'onmousedown', 'onmouseup', 'onpointerdown', 'onpointerup', 'ng-click', 'data-ng-click', 'v-on:click', '@click', 'x-on:click', 'hx-get', 'hx-post', 'wire:click', 'phx-click'];

/** Natively interactive elements: their own role already gives them a ref. */
export const NATIVE_INTERACTIVE = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], [role=checkbox], [role=radio], [role=tab], [role=menuitem], [role=option], [role=switch], [role=treeitem], [contenteditable=""], [contenteditable="true"]';

/** A container holding at least this many controls is a delegation root, not one control. */
const MAX_CONTROLS_INSIDE = 3;
/** A candidate covering more than this share of the viewport is a layout region. */
const MAX_VIEWPORT_SHARE = 0.5;

export type ClickSignal = 'listener' | 'attribute' | 'cursor' | 'tabindex';

export interface ClickableContext {
  styleOf(el: Element): CSSStyleDeclaration;
  rectOf(el: Element): DOMRect;
  viewportArea: number;
}

/** Which signals say `el` is clickable; empty when none does. */
export function clickSignals(el: Element, ctx: ClickableContext): ClickSignal[] {
  const signals: ClickSignal[] = [];
  const mark = el.getAttribute(LISTENER_MARK);
  if (mark !== null) {
    const parsed = MarkSchema.safeParse(mark);
    if (parsed.success && parsed.data.length > 0) signals.push('listener');
  }
  if (HANDLER_ATTRIBUTES.some((a) => el.hasAttribute(a)) || hasClickJsaction(el)) signals.push('attribute');
  if (ctx.styleOf(el).cursor === 'pointer') {
    const parent = el.parentElement ?? ((el.getRootNode() as Partial<ShadowRoot>).host ?? null);
    if (parent === null || ctx.styleOf(parent).cursor !== 'pointer') signals.push('cursor');
  }
  const tabindex = el.getAttribute('tabindex');
  if (tabindex !== null && Number.parseInt(tabindex, 10) >= 0) signals.push('tabindex');
  return signals;
}

/** `jsaction="click:handler"`, or a bare handler name (click is the default event). */
function hasClickJsaction(el: Element): boolean {
  const v = el.getAttribute('jsaction');
  if (v === null) return false;
  return v.split(';').some((part) => {
    const p = part.trim();
    if (p === '') return false;
    const colon = p.indexOf(':');
    return colon < 0 || /^(click|mousedown|mouseup)(\.|$)/.test(p.slice(0, colon).trim());
  });
}

/**
 * Whether an element with these signals is one control a person would click,
 * rather than a page region that happens to carry a delegated listener.
 */
export function isOneControl(el: Element, signals: readonly ClickSignal[], ctx: ClickableContext): boolean {
  const tag = el.localName;
  if (tag === 'body' || tag === 'html') return false;
  const r = ctx.rectOf(el);
  if (r.width * r.height > MAX_VIEWPORT_SHARE * ctx.viewportArea) return false;
  const controls = el.querySelectorAll(`${NATIVE_INTERACTIVE}, [${LISTENER_MARK}]`).length;
  if (controls >= MAX_CONTROLS_INSIDE) return false;
  // A wrapper around one native control is that control: let it have the ref.
  if (controls >= 1 && !signals.includes('cursor')) {
    const only = el.querySelector(NATIVE_INTERACTIVE);
    if (only !== null) {
      const o = ctx.rectOf(only);
      if (o.width * o.height >= 0.5 * r.width * r.height || sameText(el, only)) return false;
    }
  }
  // A listener on a container whose items show a pointer is delegation: the items are the controls.
  if (!signals.includes('cursor') && !signals.includes('tabindex') && pointerItemsInside(el, ctx) >= 2) return false;
  // The root a single-page app listens on (event delegation) holds the whole
  // document; on a short page it passes the size rule and would become one
  // "clickable" line holding the app's text. It is not a control.
  if (holdsTheWholeDocument(el) && holdsMoreThanOneThing(el)) return false;
  return true;
}

/** Tags that show nothing of their own: siblings of these do not share the page with `el`. */
const SILENT_TAGS = new Set(['script', 'style', 'noscript', 'template', 'link', 'meta', 'base']);

/**
 * True when nothing a person sees lies outside `el` in its document: every
 * sibling on the way up to <body> is silent (a script, a style, an empty
 * node). Cheap: it looks only at the siblings along one path.
 */
function holdsTheWholeDocument(el: Element): boolean {
  const body = el.ownerDocument.body;
  if (body === null || !body.contains(el)) return false;
  for (let node: Element = el; node !== body; ) {
    const parent = node.parentElement;
    if (parent === null) return false;
    for (const sibling of Array.from(parent.children)) {
      if (sibling === node || SILENT_TAGS.has(sibling.localName)) continue;
      if (collapse(sibling.textContent) !== '' || sibling.querySelector('img, svg, canvas, video, input, select, textarea, button') !== null) return false;
    }
    node = parent;
  }
  return true;
}

/** More than one control's worth: a heading, another control, or more words than a control's name has. */
function holdsMoreThanOneThing(el: Element): boolean {
  if (el.querySelector(`h1, h2, h3, h4, h5, h6, [role=heading], ${NATIVE_INTERACTIVE}, [${LISTENER_MARK}]`) !== null) return true;
  return collapse(el.textContent).split(' ').length > MAX_CONTROL_WORDS;
}
/** A control's name is a few words; a page's text is more. */
const MAX_CONTROL_WORDS = 12;

const collapse = (s: string | null): string => (s ?? '').replace(/\s+/g, ' ').trim();
const sameText = (a: Element, b: Element): boolean => collapse(a.textContent) === collapse(b.textContent);

/** Descendants that set a pointer cursor themselves (bounded scan). */
function pointerItemsInside(el: Element, ctx: ClickableContext): number {
  let found = 0;
  const all = el.getElementsByTagName('*');
  const n = Math.min(all.length, MAX_SCAN);
  for (let i = 0; i < n && found < 2; i++) {
    const d = all[i]!;
    if (ctx.styleOf(d).cursor === 'pointer' && d.parentElement !== null && ctx.styleOf(d.parentElement).cursor !== 'pointer') found++;
  }
  return found;
}
/** How many descendants the delegation scan looks at. */
const MAX_SCAN = 300;

/** The role a clickable element implies, `clickable` when nothing better is known. */
export function impliedRole(el: Element): string {
  if (el.localName === 'a') return 'link';
  const checked = el.getAttribute('aria-checked');
  if (checked === 'true' || checked === 'false' || checked === 'mixed') return 'checkbox';
  const pressed = el.getAttribute('aria-pressed');
  if (pressed === 'true' || pressed === 'false' || pressed === 'mixed') return 'button';
  return 'clickable';
}
