/**
 * The one app behind both the toolbar popup and the side panel: Run,
 * History and Memory tabs plus a link to the options page. Everything
 * browser-specific arrives through props (connector, tabs slice).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { BackgroundConnector } from '../connector.ts';
import { ErrorBoundary } from './error-boundary.tsx';
import { errorText, originOf } from './format.ts';
import { HistoryTab } from './history-tab.tsx';
import { MemoryTab } from './memory-tab.tsx';
import { RunTab } from './run-tab.tsx';

export interface TabLike { id?: number | undefined; url?: string | undefined }

/** The part of `chrome.tabs` the app uses. */
export interface TabsSlice {
  query(info: { active: true; currentWindow: true }): Promise<TabLike[]>;
  get(tabId: number): Promise<TabLike>;
  onActivated?: {
    addListener(cb: (info: { tabId: number }) => void): void;
    removeListener(cb: (info: { tabId: number }) => void): void;
  };
}

export interface AppProps {
  connector: BackgroundConnector;
  tabs: TabsSlice;
  /** From `?tabId=N`: pins the target tab instead of following the active one. */
  tabIdOverride: number | null;
  openOptions: () => void;
  /** Popup only: open the side panel for the target tab (must run inside the click). */
  openSidePanel?: (tabId: number) => void;
  surface: 'popup' | 'sidepanel';
  /** Passed to the Memory tab (tests). */
  download?: (filename: string, json: string) => void;
  pollMs?: number;
}

interface Target { tabId: number | null; url: string | null; error: string | null; ready: boolean }

/** The tab the app works on: the override, or the active tab (followed in the side panel). */
function useTargetTab(tabs: TabsSlice, override: number | null, follow: boolean): Target {
  const [target, setTarget] = useState<Target>({ tabId: null, url: null, error: null, ready: false });
  useEffect(() => {
    let live = true;
    const load = async (id: number | null) => {
      try {
        const tab = id !== null ? await tabs.get(id) : (await tabs.query({ active: true, currentWindow: true }))[0];
        if (live) setTarget({ tabId: tab?.id ?? id, url: tab?.url ?? null, error: null, ready: true });
      } catch (err) {
        if (live) setTarget({ tabId: id, url: null, error: errorText(err), ready: true });
      }
    };
    void load(override);
    const onActivated = (info: { tabId: number }) => void load(info.tabId);
    if (override === null && follow) tabs.onActivated?.addListener(onActivated);
    return () => {
      live = false;
      tabs.onActivated?.removeListener(onActivated);
    };
  }, [tabs, override, follow]);
  return target;
}

const TABS = [
  { id: 'run', label: 'Run' },
  { id: 'history', label: 'History' },
  { id: 'memory', label: 'Memory' },
] as const;
type TabId = (typeof TABS)[number]['id'];

export function App(props: AppProps) {
  const { connector, tabs, tabIdOverride, openOptions, surface } = props;
  const target = useTargetTab(tabs, tabIdOverride, surface === 'sidepanel');
  const [active, setActive] = useState<TabId>('run');
  const tabRefs = useRef<Record<string, HTMLButtonElement | null>>({});
  const origin = originOf(target.url);

  // ARIA tabs pattern: arrows move between tabs, Home/End jump.
  function onTabKey(e: KeyboardEvent) {
    const i = TABS.findIndex((t) => t.id === active);
    let next = -1;
    if (e.key === 'ArrowRight') next = (i + 1) % TABS.length;
    else if (e.key === 'ArrowLeft') next = (i - 1 + TABS.length) % TABS.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = TABS.length - 1;
    if (next < 0) return;
    e.preventDefault();
    const id = TABS[next]!.id;
    setActive(id);
    tabRefs.current[id]?.focus();
  }

  return (
    <div class={`app surface-${surface}`}>
      <header class="app-header">
        <h1>Apprentice</h1>
        <div>
          {surface === 'popup' && props.openSidePanel && target.tabId !== null ? (
            <button type="button" class="link" onClick={() => target.tabId !== null && props.openSidePanel?.(target.tabId)}>Open side panel</button>
          ) : null}
          <button type="button" class="link" onClick={openOptions}>Settings</button>
        </div>
      </header>
      {/* The views are the page's main landmark: everything but the header sits in one (axe: region, landmark-one-main). */}
      <main class="app-main">
      {target.error ? <p class="error" role="alert">Could not read the current tab: {target.error}</p> : null}
      <div role="tablist" aria-label="Views" class="tabs" onKeyDown={onTabKey}>
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={active === t.id ? 'true' : 'false'}
            aria-controls={`panel-${t.id}`}
            tabIndex={active === t.id ? 0 : -1}
            ref={(el) => { tabRefs.current[t.id] = el; }}
            onClick={() => setActive(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="panel-run" aria-labelledby="tab-run" hidden={active !== 'run'}>
        <ErrorBoundary label="The Run view">
          {target.ready ? (
            <RunTab
              connector={connector}
              tabId={target.tabId}
              origin={origin}
              {...(props.pollMs !== undefined ? { pollMs: props.pollMs } : {})}
            />
          ) : (
            <p role="status" class="loading"><span class="spinner" aria-hidden="true" /> Finding the tab…</p>
          )}
        </ErrorBoundary>
      </div>
      {active === 'history' ? (
        <div role="tabpanel" id="panel-history" aria-labelledby="tab-history">
          <ErrorBoundary label="The History view"><HistoryTab client={connector.client} origin={origin} /></ErrorBoundary>
        </div>
      ) : null}
      {active === 'memory' ? (
        <div role="tabpanel" id="panel-memory" aria-labelledby="tab-memory">
          <ErrorBoundary label="The Memory view">
            <MemoryTab client={connector.client} origin={origin} {...(props.download ? { download: props.download } : {})} />
          </ErrorBoundary>
        </div>
      ) : null}
      </main>
    </div>
  );
}
