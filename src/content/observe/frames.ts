/**
 * Same-origin iframes join the snapshot as a landmark line followed by their
 * content, with refs prefixed by the frame's id ("f1:7") and boxes offset
 * into the top viewport; a cross-origin frame, or one a person cannot see, is an omission.
 */
import type { SnapshotNode } from '../../core/page/observation.ts';
import type { FrameContext, SnapshotSession } from './snapshot-session.ts';
import { collapse } from './snapshot-text.ts';

/** A frame smaller than this (px) in either direction shows nothing readable. */
const MIN_FRAME_PX = 4;

/** The product of the opacities of the frame element and its ancestors. */
function frameOpacity(s: SnapshotSession, el: Element): number {
  let o = 1;
  for (let cur: Element | null = el; cur !== null; cur = cur.parentElement) {
    const own = Number.parseFloat(s.styleOf(cur).opacity);
    if (!Number.isNaN(own)) o *= own;
  }
  return o;
}

export type VisitChildren = (parent: Node, depth: number, frame: FrameContext, quiet: boolean) => void;

export function visitFrame(s: SnapshotSession, iframe: HTMLIFrameElement, depth: number, frame: FrameContext, visitChildren: VisitChildren): void {
  const label = collapse(iframe.title || iframe.name || '');
  let inner: Document | null = null;
  try {
    inner = iframe.contentDocument;
  } catch {
    inner = null;
  }
  if (inner === null || inner.defaultView === null) {
    s.omissions.push(`cross-origin frame${label ? ` "${label}"` : ''} (${iframe.src || 'no src'}): its content cannot be read`);
    return;
  }
  if (inner.body === null) return;
  const r = s.rectOf(iframe);
  // A frame nobody can see (tiny, transparent along its ancestors, off the page, or clipped away by a box above it)
  // holds no text for the model (issue 30: position and clipping, as for text: perceptible.ts).
  const faint = r.width < MIN_FRAME_PX || r.height < MIN_FRAME_PX || frameOpacity(s, iframe) < 0.1;
  const where = faint ? null : s.perceptibility.boxHidden(iframe);
  if (faint || where !== null) {
    const why = where === 'off-page' ? ', off the page' : where === 'clipped' ? ', clipped' : '';
    s.omissions.push(`hidden frame${label ? ` "${label}"` : ''} (${Math.round(r.width)}×${Math.round(r.height)} px${why}): its content is left out`);
    return;
  }
  const prefix = s.registry.frameIdFor(iframe);
  const inFrame: FrameContext = {
    win: inner.defaultView,
    prefix,
    dx: frame.dx + r.left + iframe.clientLeft,
    dy: frame.dy + r.top + iframe.clientTop,
  };
  const n: SnapshotNode = {
    ref: null, kind: 'landmark', role: 'iframe', name: label, states: {}, depth,
    inViewport: s.placement(iframe, frame, 0) === 0,
  };
  if (frame.prefix !== undefined) n.frame = frame.prefix;
  s.push(n);
  visitChildren(inner.body, depth + 1, inFrame, false);
  s.flush();
}
