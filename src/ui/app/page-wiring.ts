/**
 * What every extension page's wiring shares: the root element, and the
 * narrow slice of `chrome.runtime` the connector needs. The only place,
 * with the mount files, where the UI touches `chrome`.
 */
import * as z from 'zod';

// Same as every entry point: no eval-based fast paths under the MV3 CSP.
z.config({ jitless: true });

export function root(): HTMLElement {
  const el = document.getElementById('app');
  if (!el) throw new Error('#app is missing from the page');
  return el;
}

export const runtimeSlice = () => ({
  sendMessage: (m: unknown) => chrome.runtime.sendMessage(m) as Promise<unknown>,
  connect: (info: { name: string }) => chrome.runtime.connect(info),
});
