/**
 * The pointer's view in the snapshot: a control that something else covers
 * at every point a mouse could land on it (a fallback button under an icon
 * button, a field under a banner) is marked with what covers it, so the
 * policy can prefer an uncovered control with the same purpose instead of
 * choosing one that every click refuses (`obscured`). Only on-screen
 * controls are hit-tested: off-screen ones cannot be pointed at yet.
 */
import type { PageObservation } from '../../core/page/observation.ts';
import { describeElement } from '../dom/describe-element.ts';
import type { RefRegistry } from '../observe/ref-registry.ts';
import { isActivatable } from './act-check.ts';
import { coverOf } from './pointer.ts';

/** The control a click on `hit` goes to (an icon's button), else the element itself: what a person would call the cover. */
function controlAt(hit: Element): Element {
  for (let cur: Element | null = hit; cur !== null; cur = cur.parentElement ?? ((cur.getRootNode() as Partial<ShadowRoot>).host ?? null)) {
    if (isActivatable(cur)) return cur;
  }
  return hit;
}

export function markCovered(observation: PageObservation, registry: RefRegistry): PageObservation {
  for (const node of observation.nodes) {
    if (node.kind !== 'interactive' || node.ref === null || !node.inViewport) continue;
    const el = registry.elementFor(node.ref);
    const cover = el === null ? null : coverOf(el);
    if (cover !== null) node.coveredBy = describeElement(controlAt(cover));
  }
  return observation;
}
