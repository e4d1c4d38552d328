/**
 * The page layer as one object: observe the page, act on it, highlight an
 * element. The content script wires it to messages; the benchmark injects the
 * same code (bundled by scripts/build-page-agent.mjs) into Playwright pages, so
 * there is no second implementation.
 */
import type { Action, ActionResult } from '../core/page/action.ts';
import type { ObserveOptions, PageObservation } from '../core/page/observation.ts';
import type { TargetFingerprint } from '../core/page/target-fingerprint.ts';
import { performAction } from './act/perform-action.ts';
import { highlightRef } from './act/highlight.ts';
import { observePage } from './observe/observe-page.ts';
import { RefRegistry } from './observe/ref-registry.ts';

export interface PageAgent {
  observe(options: ObserveOptions): PageObservation;
  /** `expect`: the element as approved; the action is refused (not_run) when it is not that any more (act/act-check.ts). */
  act(action: Action, expect?: TargetFingerprint): Promise<ActionResult>;
  highlight(ref: string | null): void;
  /**
   * The snapshot line that stands for `el` — the element itself or its nearest
   * interactive ancestor — in a fresh, untruncated snapshot; null when none
   * does. The demonstration recorder names what the person touched with it.
   */
  locate(el: Element): { observation: PageObservation; ref: string } | null;
}

/** The parent in the flat tree: across a shadow root to its host. */
function flatParent(el: Element): Element | null {
  if (el.parentElement) return el.parentElement;
  return (el.getRootNode() as Partial<ShadowRoot>).host ?? null;
}

export function createPageAgent(win: Window): PageAgent {
  const registry = new RefRegistry();
  return {
    observe: (options) => observePage(win.document, registry, options),
    act: (action, expect) => performAction(action, registry, win, expect),
    highlight: (ref) => highlightRef(ref, registry, win.document),
    locate: (el) => {
      const observation = observePage(win.document, registry, {});
      const interactive = new Set(observation.nodes.filter((n) => n.kind === 'interactive' && n.ref !== null).map((n) => n.ref));
      for (let cur: Element | null = el; cur; cur = flatParent(cur)) {
        const ref = registry.knownRef(cur);
        if (ref !== undefined && interactive.has(ref)) return { observation, ref };
      }
      return null;
    },
  };
}
