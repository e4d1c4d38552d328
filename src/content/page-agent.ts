/**
 * The page layer as one object: observe the page, act on it, highlight an
 * element. The content script wires it to messages; the benchmark injects the
 * same code (bundled by scripts/build-page-agent.mjs) into Playwright pages, so
 * there is no second implementation.
 */
import type { Action, ActionResult } from '../core/page/action.ts';
import type { ObserveOptions, PageObservation } from '../core/page/observation.ts';
import { performAction } from './act/perform-action.ts';
import { highlightRef } from './act/highlight.ts';
import { observePage } from './observe/observe-page.ts';
import { RefRegistry } from './observe/ref-registry.ts';

export interface PageAgent {
  observe(options: ObserveOptions): PageObservation;
  act(action: Action): Promise<ActionResult>;
  highlight(ref: string | null): void;
}

export function createPageAgent(win: Window): PageAgent {
  const registry = new RefRegistry();
  return {
    observe: (options) => observePage(win.document, registry, options),
    act: (action) => performAction(action, registry, win),
    highlight: (ref) => highlightRef(ref, registry, win.document),
  };
}
