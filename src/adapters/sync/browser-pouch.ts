/**
 * PouchDB in the extension: pouchdb-browser (IndexedDB adapter, HTTP
 * replication), the local team database, and the team's database on the
 * server with the credentials and the fetch shim (selector-fetch.ts).
 */
import PouchDB from 'pouchdb-browser';
import type { PouchDatabase } from './pouch-types.ts';
import { selectorInQueryFetch } from './selector-fetch.ts';

export const LOCAL_TEAM_DB = 'apprentice-team';

export function localTeamDb(): PouchDatabase {
  return new PouchDB(LOCAL_TEAM_DB);
}

export function remoteTeamDb(serverUrl: string, database: string, auth: { username: string; password: string } | null): PouchDatabase {
  const url = `${serverUrl.replace(/\/+$/, '')}/${encodeURIComponent(database)}`;
  return new PouchDB(url, { ...(auth && auth.username !== '' ? { auth } : {}), skip_setup: true, fetch: selectorInQueryFetch() });
}
