/**
 * Entry point of the standalone page-agent bundle (dist-inject/page-agent.js),
 * injected into plain Playwright pages by the benchmark and DOM-level tests.
 * The extension's content script uses the same createPageAgent.
 */
import { createPageAgent, type PageAgent } from './page-agent.ts';

declare global {
  // eslint-disable-next-line no-var
  var __apprentice: PageAgent | undefined;
}

globalThis.__apprentice = createPageAgent(window);
