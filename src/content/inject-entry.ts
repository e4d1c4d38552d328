/**
 * Entry point of the standalone page-agent bundle (dist-inject/page-agent.js)
 * for DOM-level tests on pages they write themselves: the listener marks and
 * the page layer together, in the page's main world. The benchmark does not
 * use it: it runs the page layer in an isolated world
 * (dist-inject/page-agent-isolated.js, see inject-agent.ts), because a page's
 * main world can forge what runs there. The extension's content script uses
 * the same createPageAgent.
 */
import './main-world/listener-marks.iife.ts';
import './inject-agent.ts';

export type { ObservationProbe } from './inject-agent.ts';
