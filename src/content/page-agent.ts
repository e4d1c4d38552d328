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
import { deepActiveElement } from './dom/focus.ts';
import { markCovered } from './act/covered-nodes.ts';
import { stillChanging, trackChanges, waitUntilSettled, type ChangeClock } from './dom/page-settle.ts';
import { matchingNodes } from '../core/page/semantic-action.ts';
import { formatTarget } from '../core/page/action-grammar.ts';

/**
 * How long a read waits for the element a plan's next step acts on, and how
 * often it looks: a list filled from the network or a dialog that animates in
 * takes a moment; past this, the step gives up and the policy takes over.
 */
export const TARGET_WAIT_MS = 2_500;
const TARGET_POLL_MS = 100;

export interface PageAgent {
  /** The page as it is now (tools and benchmarks that read a page at a moment of their choosing). */
  observe(options: ObserveOptions): PageObservation;
  /** The page once it has settled (dom/page-settle.ts): what the agent reads before it proposes a step. */
  observeSettled(options: ObserveOptions): Promise<PageObservation>;
  /**
   * Runs the action once the page around its target has settled.
   * `expect`: the element as approved; the action is refused (not_run) when it is not that any more (act/act-check.ts).
   */
  act(action: Action, expect?: TargetFingerprint): Promise<ActionResult>;
  highlight(ref: string | null): void;
  /**
   * The snapshot line that stands for `el` — the element itself or its nearest
   * interactive ancestor — in a fresh, untruncated snapshot; null when none
   * does. The demonstration recorder names what the person touched with it;
   * "Pick an element" outlines `element`, the one the line stands for.
   */
  locate(el: Element): { observation: PageObservation; ref: string; element: Element } | null;
}

/** The parent in the flat tree: across a shadow root to its host. */
function flatParent(el: Element): Element | null {
  if (el.parentElement) return el.parentElement;
  return (el.getRootNode() as Partial<ShadowRoot>).host ?? null;
}

/** Actions that do not touch the page's elements need not wait for them. */
const NO_WAIT: ReadonlySet<Action['type']> = new Set(['goto', 'go_back', 'go_forward', 'send_msg_to_user', 'report_infeasible']);

/** The element whose surroundings must be still before acting: the target, the focused element for a bare key press. */
function elementNear(action: Action, registry: RefRegistry, win: Window): Element | null {
  if ('target' in action && action.target?.kind === 'ref') return registry.elementFor(action.target.ref);
  return action.type === 'press' ? deepActiveElement(win.document) : null;
}

async function observeSettled(win: Window, registry: RefRegistry, clock: ChangeClock, options: ObserveOptions): Promise<PageObservation> {
  const started = win.performance.now();
  for (;;) {
    const settle = await waitUntilSettled(win, clock);
    const observation = markCovered(observePage(win.document, registry, options), registry);
    // Said where the step record keeps what the page showed: the snapshot may be out of date already.
    if (!settle.settled) observation.omissions.push(`${stillChanging(settle)}; this snapshot may be out of date`);
    const wanted = options.waitFor ?? null;
    if (wanted === null || matchingNodes(wanted, observation).length > 0) return observation;
    const waited = win.performance.now() - started;
    if (waited >= TARGET_WAIT_MS) {
      observation.omissions.push(`waited ${Math.round(waited)} ms for ${formatTarget(wanted)}; it did not appear`);
      return observation;
    }
    await new Promise((resolve) => win.setTimeout(resolve, TARGET_POLL_MS));
  }
}

async function actSettled(win: Window, registry: RefRegistry, clock: ChangeClock, action: Action, expect?: TargetFingerprint): Promise<ActionResult> {
  if (NO_WAIT.has(action.type)) return performAction(action, registry, win, expect);
  const settle = await waitUntilSettled(win, clock, { near: elementNear(action, registry, win) });
  const result = await performAction(action, registry, win, expect);
  if (settle.settled) return result;
  const said = `${stillChanging(settle)} around the target; acted anyway`;
  if (!result.ok) return { ...result, message: `${result.message} (${said})` };
  return { ...result, note: result.note === undefined ? said : `${result.note}; ${said}` };
}

export function createPageAgent(win: Window): PageAgent {
  const registry = new RefRegistry();
  const clock = trackChanges(win);
  return {
    observe: (options) => markCovered(observePage(win.document, registry, options), registry),
    observeSettled: (options) => observeSettled(win, registry, clock, options),
    act: (action, expect) => actSettled(win, registry, clock, action, expect),
    highlight: (ref) => highlightRef(ref, registry, win.document),
    locate: (el) => {
      const observation = observePage(win.document, registry, {});
      const interactive = new Set(observation.nodes.filter((n) => n.kind === 'interactive' && n.ref !== null).map((n) => n.ref));
      for (let cur: Element | null = el; cur; cur = flatParent(cur)) {
        const ref = registry.knownRef(cur);
        if (ref !== undefined && interactive.has(ref)) return { observation, ref, element: cur };
      }
      return null;
    },
  };
}
