/**
 * Wiring for the extension pages: the only place the UI touches `chrome`.
 * It hands narrow slices of `chrome.runtime` and `chrome.tabs` to the app.
 */
import { render } from 'preact';
import * as z from 'zod';
import { createBackgroundConnector } from '../connector.ts';
import { App } from './app.tsx';
import { ErrorBoundary } from './error-boundary.tsx';
import { tabIdFromSearch } from './format.ts';
import { OptionsPage } from './options-page.tsx';

// Same as every entry point: no eval-based fast paths under the MV3 CSP.
z.config({ jitless: true });

function root(): HTMLElement {
  const el = document.getElementById('app');
  if (!el) throw new Error('#app is missing from the page');
  return el;
}

const runtimeSlice = () => ({
  sendMessage: (m: unknown) => chrome.runtime.sendMessage(m) as Promise<unknown>,
  connect: (info: { name: string }) => chrome.runtime.connect(info),
});

/**
 * The popup and the side panel. `?tabId=N` pins the target tab: when the
 * popup page is opened as a tab (tests, or a pinned window) the active tab
 * would be the popup itself.
 */
export function mountApp(surface: 'popup' | 'sidepanel'): void {
  const connector = createBackgroundConnector(runtimeSlice());
  render(
    <ErrorBoundary label="Apprentice">
      <App
        connector={connector}
        tabs={chrome.tabs}
        tabIdOverride={tabIdFromSearch(location.search)}
        openOptions={() => void chrome.runtime.openOptionsPage()}
        {...(surface === 'popup'
          ? {
              // Called straight from the click: sidePanel.open needs the user gesture.
              openSidePanel: (tabId: number) => {
                chrome.sidePanel.open({ tabId }).then(() => window.close(), (err: unknown) => console.warn('[apprentice] side panel did not open', err));
              },
            }
          : {})}
        surface={surface}
      />
    </ErrorBoundary>,
    root(),
  );
}

export function mountOptions(): void {
  const { client } = createBackgroundConnector(runtimeSlice());
  render(<ErrorBoundary label="The settings page"><OptionsPage client={client} /></ErrorBoundary>, root());
}
