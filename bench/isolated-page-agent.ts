/**
 * The page layer in an isolated world of a Playwright page, as the extension
 * runs its content script. A world has its own globals and its own copies of
 * the DOM prototypes, so a hostile page that replaces `__apprentice` or patches
 * `Element.prototype.getAttribute`, the `textContent` getter or
 * `getBoundingClientRect` in its main world changes nothing the observer reads
 * or the actions call. Only the DOM itself (shared by every world) is page data.
 *
 * Over CDP: `Page.addScriptToEvaluateOnNewDocument` with a `worldName` installs
 * dist-inject/page-agent-isolated.js in a world of that name in every new
 * document (before the page's scripts, as an init script did);
 * `Page.createIsolatedWorld` covers a document that was already there. Calls
 * run with `Runtime.callFunctionOn` in the main frame's world, whose context id
 * is tracked from `Runtime.executionContextCreated`/`Destroyed` across
 * navigations. Playwright-core only; Debian Chromium.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CDPSession, Page } from 'playwright-core';

export const ISOLATED_AGENT_BUNDLE = resolve(import.meta.dirname, '../dist-inject/page-agent-isolated.js');
/** The name of the world (Chromium shares one world per name and frame). */
export const AGENT_WORLD = 'apprentice-page-agent';

export interface IsolatedPageAgent {
  /** Runs `fn(arg)` in the main frame's isolated world; the result comes back as JSON. */
  evaluate<R, A = undefined>(fn: (arg: A) => R, arg?: A): Promise<Awaited<R>>;
  /** `globalThis[name](payload)` in this world (every document) calls `listener(payload)` here: a CDP binding. */
  bind(name: string, listener: (payload: string) => void): Promise<void>;
  /** The main frame's load events, on the same session as the bindings (so in order with them). */
  onLoad(listener: () => void): void;
  detach(): Promise<void>;
}

export class IsolatedWorldError extends Error {
  override name = 'IsolatedWorldError';
}

export async function attachIsolatedPageAgent(page: Page, bundle = ISOLATED_AGENT_BUNDLE): Promise<IsolatedPageAgent> {
  if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run \`npm run build\` first.`);
  const source = readFileSync(bundle, 'utf8');
  const cdp: CDPSession = await page.context().newCDPSession(page);
  // frameId → execution context id of our world in that frame's current document.
  const contexts = new Map<string, number>();
  cdp.on('Runtime.executionContextCreated', ({ context }) => {
    const frameId = (context.auxData as { frameId?: unknown } | undefined)?.frameId;
    if (context.name === AGENT_WORLD && typeof frameId === 'string') contexts.set(frameId, context.id);
  });
  cdp.on('Runtime.executionContextDestroyed', ({ executionContextId }) => {
    for (const [frameId, id] of contexts) if (id === executionContextId) contexts.delete(frameId);
  });
  cdp.on('Runtime.executionContextsCleared', () => contexts.clear());
  // The main frame's id, kept current (a frame without a parent is the main frame).
  let mainFrameId: string | null = null;
  cdp.on('Page.frameNavigated', ({ frame }) => {
    if (frame.parentId === undefined) mainFrameId = frame.id;
  });
  await cdp.send('Page.enable');
  await cdp.send('Runtime.enable');
  await cdp.send('Page.addScriptToEvaluateOnNewDocument', { source, worldName: AGENT_WORLD });

  async function mainWorldContext(): Promise<number> {
    const frameId = mainFrameId ?? (mainFrameId = (await cdp.send('Page.getFrameTree')).frameTree.frame.id);
    const known = contexts.get(frameId);
    if (known !== undefined) return known;
    // A document loaded before the script was added: make the world and install the agent now
    // (the bundle installs itself once per world, so a race with the new-document script is harmless).
    const { executionContextId } = await cdp.send('Page.createIsolatedWorld', { frameId, worldName: AGENT_WORLD });
    const installed = await cdp.send('Runtime.evaluate', { expression: source, contextId: executionContextId });
    if (installed.exceptionDetails) throw new IsolatedWorldError(`the page agent did not install: ${describe(installed.exceptionDetails)}`);
    contexts.set(frameId, executionContextId);
    return executionContextId;
  }

  return {
    async evaluate<R, A = undefined>(fn: (arg: A) => R, arg?: A): Promise<Awaited<R>> {
      const call = async () => {
        const executionContextId = await mainWorldContext();
        try {
          return await cdp.send('Runtime.callFunctionOn', {
            functionDeclaration: fn.toString(),
            executionContextId,
            arguments: arg === undefined ? [] : [{ value: arg }],
            returnByValue: true,
            awaitPromise: true,
          });
        } catch (err) {
          // The document had gone before the call started (its "destroyed" event not read yet): nothing ran.
          if (/Cannot find context/i.test(String(err))) for (const [frameId, id] of contexts) if (id === executionContextId) contexts.delete(frameId);
          throw err;
        }
      };
      // Once more on a context that was already gone, which cannot have run anything; an error
      // while the call ran ("Execution context was destroyed") is the caller's to read.
      const { result, exceptionDetails } = await call().catch((err: unknown) => {
        if (/Cannot find context/i.test(String(err))) return call();
        throw err;
      });
      if (exceptionDetails) throw new IsolatedWorldError(describe(exceptionDetails));
      return result.value as Awaited<R>;
    },
    async bind(name, listener) {
      cdp.on('Runtime.bindingCalled', (event) => {
        if (event.name === name) listener(event.payload);
      });
      await cdp.send('Runtime.addBinding', { name, executionContextName: AGENT_WORLD });
    },
    onLoad(listener) {
      cdp.on('Page.loadEventFired', () => listener());
    },
    async detach() {
      await cdp.detach().catch(() => undefined);
    },
  };
}

function describe(details: { text: string; exception?: { description?: string } }): string {
  return details.exception?.description ?? details.text;
}
