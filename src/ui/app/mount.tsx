/**
 * Wiring for the popup and the side panel: it hands narrow slices of
 * `chrome.runtime` and `chrome.tabs` to the app. The options page has its own
 * (mount-options.tsx), so it does not bundle the panel's code.
 */
import { render } from 'preact';
import { createBackgroundConnector } from '../connector.ts';
import { App } from './app.tsx';
import { ErrorBoundary } from './error-boundary.tsx';
import { tabIdFromSearch } from './format.ts';
import { root, runtimeSlice } from './page-wiring.ts';

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
