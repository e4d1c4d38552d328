/**
 * Entry point of the standalone page-agent bundle (dist-inject/page-agent.js),
 * injected into plain Playwright pages by the benchmark and DOM-level tests.
 * The extension's content script uses the same createPageAgent.
 *
 * `__apprenticeProbe` exposes the same observer with its own registry plus a
 * ref → element lookup, so the benchmark can pair our lines with Chromium's
 * accessibility nodes; the agent itself does not use it.
 */
import './main-world/listener-marks.iife.ts';
import { renderObservation } from '../core/page/render-observation.ts';
import type { ObserveOptions, PageObservation } from '../core/page/observation.ts';
import { observePage } from './observe/observe-page.ts';
import { RefRegistry } from './observe/ref-registry.ts';
import { createPageAgent, type PageAgent } from './page-agent.ts';

export interface ObservationProbe {
  observe(options: ObserveOptions): PageObservation;
  render(obs: PageObservation): string;
  elementFor(ref: string): Element | null;
}

declare global {
  var __apprentice: PageAgent | undefined;
  var __apprenticeProbe: ObservationProbe | undefined;
}

globalThis.__apprentice = createPageAgent(window);

const probeRegistry = new RefRegistry();
globalThis.__apprenticeProbe = {
  observe: (options) => observePage(document, probeRegistry, options),
  render: renderObservation,
  elementFor: (ref) => probeRegistry.elementFor(ref),
};
