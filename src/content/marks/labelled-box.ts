/**
 * Apprentice's marks in the page (issue 31): a box round an element with a
 * short label ("Apprentice: next step"), and a banner along the top of the
 * page while something of Apprentice's is on (picking, recording), and a
 * border round the whole page while an episode works in the tab. Each is
 * inert for the page (pointer-events: none, aria-hidden) and carries the
 * overlay attribute, so observation skips it and the settle check ignores it.
 * Colours: white on #9a3412 is 7.3:1; the 3 px outline is #c2410c with a
 * white halo, visible on light and dark pages.
 */
import { OVERLAY_ATTRIBUTE } from '../act/highlight.ts';
import { viewportRect } from '../dom/viewport-rect.ts';

/** Which mark a node is, as the attribute's value: each kind is drawn and cleared on its own. */
export type MarkKind = 'pick' | 'banner' | 'next' | 'frame';

const INERT = { pointerEvents: 'none', zIndex: '2147483647', boxSizing: 'border-box', margin: '0' } as const;

export function clearMarks(doc: Document, kind: MarkKind): void {
  for (const old of Array.from(doc.querySelectorAll(`[${OVERLAY_ATTRIBUTE}="${kind}"]`))) old.remove();
}

function mark(doc: Document, kind: MarkKind, style: Partial<CSSStyleDeclaration>, text = ''): HTMLElement {
  const el = doc.createElement('div');
  el.setAttribute(OVERLAY_ATTRIBUTE, kind);
  el.setAttribute('aria-hidden', 'true');
  Object.assign(el.style, INERT, style);
  el.textContent = text;
  (doc.body ?? doc.documentElement).append(el);
  return el;
}

const LABEL_STYLE: Partial<CSSStyleDeclaration> = {
  position: 'fixed',
  padding: '2px 6px',
  background: '#9a3412',
  color: '#ffffff',
  font: '600 12px/1.4 system-ui, sans-serif',
  borderRadius: '3px',
  whiteSpace: 'nowrap',
  maxWidth: '90vw',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
};

/** A box round `el` with `label` above it (below it when there is no room above). Replaces this kind's marks. */
export function drawLabelledBox(doc: Document, kind: MarkKind, el: Element, label: string): void {
  clearMarks(doc, kind);
  // An element in a same-origin frame is boxed in the top document, where its frame puts it.
  const r = viewportRect(el, doc);
  mark(doc, kind, {
    position: 'fixed',
    left: `${r.left - 3}px`,
    top: `${r.top - 3}px`,
    width: `${r.width + 6}px`,
    height: `${r.height + 6}px`,
    outline: '3px solid #c2410c',
    boxShadow: '0 0 0 5px rgba(255, 255, 255, 0.85)',
    borderRadius: '3px',
    background: 'rgba(194, 65, 12, 0.10)',
  });
  const above = r.top >= 24;
  mark(doc, kind, { ...LABEL_STYLE, left: `${Math.max(0, r.left - 3)}px`, top: above ? `${r.top - 26}px` : `${r.bottom + 6}px` }, label);
}

/** A banner along the top of the page: what Apprentice is doing now. Replaces the banner there was. */
export function drawBanner(doc: Document, text: string): void {
  clearMarks(doc, 'banner');
  mark(doc, 'banner', { ...LABEL_STYLE, left: '50%', top: '8px', transform: 'translateX(-50%)', padding: '6px 12px', font: '600 13px/1.4 system-ui, sans-serif', borderRadius: '6px', boxShadow: '0 2px 8px rgba(0,0,0,0.3)' }, text);
}

/**
 * A 4 px border round the viewport with a small label in its corner, while an
 * episode works in this tab. Inert like every mark; replaces the frame there was.
 */
export function drawFrame(doc: Document): void {
  clearMarks(doc, 'frame');
  mark(doc, 'frame', { position: 'fixed', inset: '0', border: '4px solid #c2410c', boxShadow: 'inset 0 0 0 1px rgba(255, 255, 255, 0.85)' });
  mark(doc, 'frame', { ...LABEL_STYLE, right: '4px', bottom: '4px', borderRadius: '3px 0 0 0' }, FRAME_LABEL);
}

/**
 * Labels the proposal's highlight box (act/highlight.ts draws it, with an
 * empty overlay value) and makes it clear: a 3 px outline with a white halo,
 * and `text` above it ("Apprentice: next step"). Clears the label when no box
 * is drawn.
 */
export function labelHighlight(doc: Document, text: string): void {
  clearMarks(doc, 'next');
  const box = doc.querySelector<HTMLElement>(`[${OVERLAY_ATTRIBUTE}=""]`);
  if (!box) return;
  Object.assign(box.style, { outline: '3px solid #c2410c', boxShadow: '0 0 0 5px rgba(255, 255, 255, 0.85)' });
  const r = box.getBoundingClientRect();
  const above = r.top >= 24;
  mark(doc, 'next', { ...LABEL_STYLE, left: `${Math.max(0, r.left)}px`, top: above ? `${r.top - 24}px` : `${r.bottom + 4}px` }, text);
}

export const NEXT_STEP_LABEL = 'Apprentice: next step';
export const ACTING_LABEL = 'Apprentice: doing this step';
export const RECORDING_BANNER = 'Apprentice is recording what you do';
export const FRAME_LABEL = 'Apprentice is working in this tab';
