/**
 * What can go wrong with the team server, each with a message that names
 * the exact problem and says that local memory is untouched. Sent across
 * contexts as { name, message, kind } (matched by name, not instanceof).
 */
export type TeamSyncProblem =
  | 'insecure' // credentials would travel over plain http to another computer
  | 'bad-url'
  | 'unreachable'
  | 'credentials'
  | 'forbidden'
  | 'missing-database'
  | 'too-old'
  | 'not-couchdb'
  | 'too-large'
  | 'quota'
  | 'interrupted'
  | 'other';

export class TeamSyncError extends Error {
  override name = 'TeamSyncError';
  constructor(readonly problem: TeamSyncProblem, message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

const KEPT = 'Nothing in your local memory was changed or lost.';

/** The message for each problem; `detail` names the server, database or what the server said. */
export function problemMessage(problem: TeamSyncProblem, detail: string): string {
  switch (problem) {
    case 'insecure': return `Refused: credentials are sent only over https:// (or plain http:// to this computer); ${detail} would receive them unencrypted.`;
    case 'bad-url': return `The server URL "${detail}" is not a URL.`;
    case 'unreachable': return `The team server ${detail} cannot be reached (not running, wrong address, or the network is down). ${KEPT}`;
    case 'credentials': return `The team server ${detail} refused the user name or password (wrong credentials). ${KEPT}`;
    case 'forbidden': return `The user has no access to the team database ${detail} (ask its admin to add you as a member). ${KEPT}`;
    case 'missing-database': return `The team database ${detail} does not exist on the server (create it, or check the database name). ${KEPT}`;
    case 'too-old': return `The team server runs ${detail}, too old for the replication protocol Apprentice uses (CouchDB 2.0 or later). ${KEPT}`;
    case 'not-couchdb': return `${detail} does not answer like a CouchDB server. ${KEPT}`;
    case 'too-large': return `The team server refused a document as too large (${detail}). ${KEPT}`;
    case 'quota': return `There is no space left to store team memory (${detail}). The merge was not written and will be retried; ${KEPT.toLowerCase()}`;
    case 'interrupted': return `The team server went away during replication (${detail}). What was copied is kept; the next sync resumes from the last checkpoint. ${KEPT}`;
    case 'other': return `Team sync failed: ${detail}. ${KEPT}`;
  }
}

export const teamSyncError = (problem: TeamSyncProblem, detail: string, cause?: unknown): TeamSyncError =>
  new TeamSyncError(problem, problemMessage(problem, detail), cause === undefined ? undefined : { cause });

const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** Why credentials may not be sent to this server URL (same rule as the API key), or null. */
export function credentialTransportProblem(serverUrl: string, hasCredentials: boolean): TeamSyncError | null {
  let url: URL;
  try {
    url = new URL(serverUrl);
  } catch {
    return teamSyncError('bad-url', serverUrl);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return teamSyncError('bad-url', serverUrl);
  if (!hasCredentials || url.protocol === 'https:' || LOOPBACK_HOST.test(url.hostname)) return null;
  return teamSyncError('insecure', url.origin);
}

/** The CouchDB major version from a server's welcome (`GET /`), or null when it is not CouchDB. */
export function serverVersionProblem(welcome: unknown, server: string): TeamSyncError | null {
  if (typeof welcome !== 'object' || welcome === null) return teamSyncError('not-couchdb', server);
  const w = welcome as Record<string, unknown>;
  // pouchdb-server (tests, small teams) speaks the same protocol and says so in its welcome.
  if (typeof w['express-pouchdb'] === 'string') return null;
  if (w.couchdb !== 'Welcome' || typeof w.version !== 'string') return teamSyncError('not-couchdb', server);
  const major = Number.parseInt(w.version, 10);
  if (!Number.isFinite(major) || major < 2) return teamSyncError('too-old', `CouchDB ${w.version}`);
  return null;
}
