/**
 * The page layer alone (observe + act, and the benchmark's probe), without the
 * main-world listener marks: dist-inject/page-agent-isolated.js. The benchmark
 * runs it in an isolated world (bench/isolated-page-agent.ts), as the
 * extension runs its content script, so a page's own scripts cannot replace
 * `__apprentice` or patch the DOM prototypes the observer reads; the marks
 * (dist-inject/listener-marks.js) stay in the main world, where the page's
 * listeners are added.
 *
 * `__apprenticeProbe` exposes the same observer with its own registry plus a
 * ref → element lookup, so the benchmark can pair our lines with Chromium's
 * accessibility nodes; the agent itself does not use it.
 */
import { renderObservation } from '../core/page/render-observation.ts';
import type { ObserveOptions, PageObservation } from '../core/page/observation.ts';
import { observePage } from './observe/observe-page.ts';
import { RefRegistry } from './observe/ref-registry.ts';
import { createPageAgent, type PageAgent } from './page-agent.ts';
import { createDemonstrationRecorder, type DemonstrationRecorder } from './record/demonstration-recorder.ts';

export interface ObservationProbe {
  observe(options: ObserveOptions): PageObservation;
  render(obs: PageObservation): string;
  elementFor(ref: string): Element | null;
}

declare global {
  var __apprentice: PageAgent | undefined;
  var __apprenticeProbe: ObservationProbe | undefined;
  /**
   * The content script's demonstration recorder, for Show me in the
   * benchmark (bench/show-me.ts): what the person (Playwright's trusted
   * input) does is passed as JSON to `__apprenticeRecorded`, a CDP binding.
   */
  var __apprenticeRecorder: DemonstrationRecorder | undefined;
  var __apprenticeRecorded: ((payload: string) => void) | undefined;
}

// Installed once per world: a second injection into the same document keeps the refs already handed out.
if (globalThis.__apprentice === undefined) {
  const agent = createPageAgent(window);
  globalThis.__apprentice = agent;
  const report = (payload: unknown) => globalThis.__apprenticeRecorded?.(JSON.stringify(payload));
  globalThis.__apprenticeRecorder = createDemonstrationRecorder({
    win: window,
    locate: (el) => agent.locate(el),
    send: async (step) => report({ step }),
    onUnrecordable: (what) => report({ unrecordable: what }),
  });
  const probeRegistry = new RefRegistry();
  globalThis.__apprenticeProbe = {
    observe: (options) => observePage(document, probeRegistry, options),
    render: renderObservation,
    elementFor: (ref) => probeRegistry.elementFor(ref),
  };
}
