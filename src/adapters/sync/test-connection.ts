/**
 * "Test connection" for team memory: three requests, each naming the exact
 * problem when it fails — the server (reachable? CouchDB? new enough?), then
 * the credentials and the database (`GET /db` with them: 401 wrong
 * credentials, 403 not a member, 404 missing database).
 */
import { credentialTransportProblem, serverVersionProblem, teamSyncError, type TeamSyncProblem } from '../../core/sync/sync-errors.ts';
import type { FetchFunction } from './selector-fetch.ts';

export interface TeamConnection {
  serverUrl: string;
  database: string;
  username: string;
  password: string;
}

export type ConnectionReport =
  | { ok: true; detail: string }
  | { ok: false; problem: TeamSyncProblem; message: string };

const withoutSlash = (url: string) => url.replace(/\/+$/, '');
const basic = (u: string, p: string) => `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(`${u}:${p}`)))}`;

async function timed(fetchFn: FetchFunction, url: string, init: RequestInit, timeoutMs: number): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    return await fetchFn(url, { ...init, signal: controller.signal });
  } finally {
    clearTimeout(timer);
  }
}

export async function testTeamConnection(c: TeamConnection, fetchFn: FetchFunction = (u, i) => fetch(u, i), timeoutMs = 8000): Promise<ConnectionReport> {
  const fail = (e: { problem: TeamSyncProblem; message: string }): ConnectionReport => ({ ok: false, problem: e.problem, message: e.message });
  const transport = credentialTransportProblem(c.serverUrl, c.username !== '' || c.password !== '');
  if (transport) return fail(transport);
  if (!/^[a-z][a-z0-9_$()+/-]*$/.test(c.database)) {
    return fail(teamSyncError('missing-database', `"${c.database}" (a CouchDB database name is lowercase letters, digits and _$()+-/, starting with a letter)`));
  }
  const server = withoutSlash(c.serverUrl);
  let welcome: unknown;
  try {
    const res = await timed(fetchFn, `${server}/`, { headers: { accept: 'application/json' } }, timeoutMs);
    welcome = await res.json().catch(() => null);
  } catch {
    return fail(teamSyncError('unreachable', server));
  }
  const version = serverVersionProblem(welcome, server);
  if (version) return fail(version);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (c.username !== '') headers.authorization = basic(c.username, c.password);
  let res: Response;
  try {
    res = await timed(fetchFn, `${server}/${encodeURIComponent(c.database)}`, { headers }, timeoutMs);
  } catch {
    return fail(teamSyncError('unreachable', server));
  }
  if (res.status === 401) return fail(teamSyncError('credentials', server));
  if (res.status === 403) return fail(teamSyncError('forbidden', `"${c.database}"`));
  if (res.status === 404) return fail(teamSyncError('missing-database', `"${c.database}"`));
  if (!res.ok) return fail(teamSyncError('other', `HTTP ${res.status} from ${server}/${c.database}`));
  const info = (await res.json().catch(() => ({}))) as { doc_count?: unknown };
  const w = welcome as { version?: unknown; couchdb?: unknown };
  const kind = w.couchdb === 'Welcome' ? `CouchDB ${String(w.version)}` : `pouchdb-server ${String(w.version)}`;
  return { ok: true, detail: `${kind}; database "${c.database}" holds ${typeof info.doc_count === 'number' ? info.doc_count : '?'} documents` };
}
