/**
 * The Run tab's live state: the tab's current episode (loaded, followed
 * through background events, and re-read while the model thinks in case an
 * event was missed) and the settings.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Episode } from '../../core/episode/episode.ts';
import type { Settings } from '../../core/settings.ts';
import type { BackgroundConnector } from '../connector.ts';
import { errorText } from './format.ts';

export interface TabEpisode {
  episode: Episode | null;
  setEpisode(episode: Episode | null): void;
  loading: boolean;
  settings: Settings | null;
  setSettings(settings: Settings): void;
}

export interface TabEpisodeCallbacks {
  /** The episode found in the tab on load: its task fills the task field. */
  onLoadedTask(task: string): void;
  onError(message: string): void;
}

export function useTabEpisode(connector: BackgroundConnector, tabId: number | null, pollMs: number, on: TabEpisodeCallbacks): TabEpisode {
  const { client } = connector;
  const [episode, setEpisode] = useState<Episode | null>(null);
  const [loading, setLoading] = useState(true);
  const [settings, setSettings] = useState<Settings | null>(null);
  const episodeId = useRef<string | null>(null);
  episodeId.current = episode?.id ?? null;

  useEffect(() => {
    let live = true;
    setEpisode(null);
    if (tabId === null) {
      setLoading(false);
      return;
    }
    setLoading(true);
    client.request('episode.current', { tabId }).then(
      (ep) => { if (live) { setEpisode(ep); if (ep) on.onLoadedTask(ep.task); } },
      (err: unknown) => { if (live) on.onError(errorText(err)); },
    ).finally(() => { if (live) setLoading(false); });
    return () => { live = false; };
  }, [client, tabId]);

  useEffect(() => {
    let live = true;
    client.request('settings.get', {}).then((s) => { if (live) setSettings(s); }, () => { /* the switch stays hidden */ });
    return () => { live = false; };
  }, [client]);

  useEffect(() => connector.subscribe((event) => {
    if (event.type === 'settings.updated') {
      setSettings(event.settings);
      return;
    }
    const ep = event.episode;
    setEpisode((prev) => {
      if (prev && ep.id === prev.id) return ep;
      // A new episode in our tab (started from another view of the same tab).
      if (tabId !== null && ep.tabId === tabId && (!prev || ep.startedAt >= prev.startedAt)) return ep;
      return prev;
    });
  }), [connector, tabId]);

  const status = episode?.status ?? null;
  useEffect(() => {
    if (status !== 'running' || !episode) return;
    const id = episode.id;
    const timer = setInterval(() => {
      client.request('episode.get', { episodeId: id }).then(
        (ep) => { if (ep && episodeId.current === id) setEpisode(ep); },
        () => { /* the next tick or an event will tell */ },
      );
    }, pollMs);
    return () => clearInterval(timer);
  }, [client, status, episode?.id, pollMs]);

  return { episode, setEpisode, loading, settings, setSettings };
}
