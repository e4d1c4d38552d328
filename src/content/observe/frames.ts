/**
 * Same-origin iframes join the snapshot as a landmark line followed by their
 * content, with refs prefixed by the frame's id ("f1:7") and boxes offset
 * into the top viewport; a cross-origin frame is an omission.
 */
import type { SnapshotNode } from '../../core/page/observation.ts';
import type { FrameContext, SnapshotSession } from './snapshot-session.ts';
import { collapse } from './snapshot-text.ts';

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
  const prefix = s.registry.frameIdFor(iframe);
  const r = s.rectOf(iframe);
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
