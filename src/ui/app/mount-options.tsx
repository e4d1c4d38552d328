/** Wiring for the options page. */
import { render } from 'preact';
import { createBackgroundConnector } from '../connector.ts';
import { ErrorBoundary } from './error-boundary.tsx';
import { OptionsPage } from './options-page.tsx';
import { root, runtimeSlice } from './page-wiring.ts';

export function mountOptions(): void {
  const { client } = createBackgroundConnector(runtimeSlice());
  render(<ErrorBoundary label="The settings page"><OptionsPage client={client} /></ErrorBoundary>, root());
}
