/**
 * Page → accessibility snapshot: one node per interactive element, heading,
 * landmark and short visible text run, with a ref for everything a person can
 * use. The parts:
 *   - snapshot-session.ts: the snapshot's state, caches, text runs, omissions;
 *   - snapshot-walker.ts: the walk through the rendered tree (shadow roots, slots);
 *   - describe-node.ts, element-states.ts: one element → one node;
 *   - clickable-node.ts (signals in clickable.ts): controls without a role;
 *   - frames.ts: same-origin iframes;
 *   - label-index.ts: `element.labels` served from one index per tree scope.
 */
import type { ObserveOptions, PageObservation } from '../../core/page/observation.ts';
import { truncateObservation } from '../../core/page/render-observation.ts';
import { assignOrdinals } from '../../core/page/target-ordinals.ts';
import type { RefRegistry } from './ref-registry.ts';
import { SnapshotSession } from './snapshot-session.ts';
import { SnapshotWalker } from './snapshot-walker.ts';

export function observePage(doc: Document, registry: RefRegistry, options: ObserveOptions): PageObservation {
  const started = performance.now();
  const session = new SnapshotSession(doc, registry);
  const walker = new SnapshotWalker(session);
  try {
    if (doc.body !== null) walker.visitChildren(doc.body, 0, session.topFrame, false);
    session.flush();
  } finally {
    session.labels.restore();
  }
  session.summarize();
  assignOrdinals(session.nodes);

  const { top, vh } = session;
  const root = doc.scrollingElement ?? doc.documentElement;
  let obs: PageObservation = {
    url: doc.URL,
    title: doc.title,
    nodes: session.nodes,
    focusedRef: session.focusedRef,
    offscreen: session.offscreen,
    omissions: session.omissions,
    scroll: { y: top.scrollY, maxY: Math.max(0, root.scrollHeight - vh), viewportHeight: vh },
    tookMs: 0,
  };
  if (options.maxChars !== undefined) {
    obs = truncateObservation(obs, { maxChars: options.maxChars, lastActedRef: options.lastActedRef ?? null, ...(options.task !== undefined ? { task: options.task } : {}) });
  }
  obs.tookMs = Math.max(0, performance.now() - started);
  return obs;
}
