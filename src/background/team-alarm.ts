/**
 * Builds team memory for the worker (chrome storage, pouchdb-browser) and
 * runs its rounds on chrome.alarms while "live" is on: a service worker may
 * be stopped at any time, so live sync is a one-shot round every few
 * minutes, resumable by CouchDB's checkpoints, not a continuous feed.
 */
import { TeamSettingsStore } from '../adapters/sync/team-settings-store.ts';
import { localTeamDb, remoteTeamDb } from '../adapters/sync/browser-pouch.ts';
import type { MemoryTransferDeps } from '../core/learning/memory-transfer.ts';
import { TeamMemory, type TeamMemoryDeps } from './team-memory.ts';

const ALARM = 'apprentice-team-sync';
const PERIOD_MINUTES = 5;

export function createTeamMemory(input: { transfer: () => MemoryTransferDeps; stores: TeamMemoryDeps['stores'] }): TeamMemory {
  const settings = new TeamSettingsStore(chrome.storage.local, () => crypto.randomUUID());
  const team = new TeamMemory({
    settings,
    get transfer() {
      return input.transfer();
    },
    stores: input.stores,
    localDb: localTeamDb,
    remoteDb: (s, password) => remoteTeamDb(s.serverUrl, s.database, { username: s.username, password }),
    appVersion: chrome.runtime.getManifest().version,
    now: () => Date.now(),
  });
  // The alarm follows the setting at start-up and after every save.
  const follow = async () => {
    const s = await settings.load();
    if (s.live) await chrome.alarms.create(ALARM, { periodInMinutes: PERIOD_MINUTES });
    else await chrome.alarms.clear(ALARM);
  };
  follow().catch(() => undefined);
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === 'local' && 'apprentice.team' in changes) follow().catch(() => undefined);
  });
  return team;
}

export function registerTeamAlarm(team: () => Promise<TeamMemory>): void {
  chrome.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === ALARM) team().then((t) => t.sync()).catch(() => undefined);
  });
}
