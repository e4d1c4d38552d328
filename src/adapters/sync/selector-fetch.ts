/**
 * The fetch PouchDB uses for the team server. Two jobs:
 *
 * 1. PouchDB asks the server for a filtered changes feed with
 * `POST _changes?filter=_selector` and the selector in the body, as CouchDB
 * 2+ reads it. pouchdb-server (express-pouchdb 4.2) reads only the query
 * string and, without it, fails the whole server. This fetch also puts the
 * selector in the query string; CouchDB ignores the extra parameter.
 * 2. A server that goes away mid-request becomes a 503 answer marked
 *    UNREACHABLE_REASON, which PouchDB's error path handles (a raw network
 *    failure escapes it as an unhandled rejection).
 */
/** The reason of the synthetic answer that stands for a server gone away. */
export const UNREACHABLE_REASON = 'the team server did not answer';

export type FetchFunction = (url: string | URL, init?: RequestInit) => Promise<Response>;

function withSelectorInQuery(url: string | URL, init: RequestInit | undefined): string | URL {
  const text = String(url);
  if (!text.includes('/_changes') || !text.includes('filter=_selector') || typeof init?.body !== 'string') return url;
  try {
    const selector = (JSON.parse(init.body) as { selector?: unknown }).selector;
    return selector === undefined ? url : `${text}&selector=${encodeURIComponent(JSON.stringify(selector))}`;
  } catch {
    return url;
  }
}

/**
 * Also reads each answer's body before handing it to PouchDB: a server that
 * dies while sending it then fails this request, which PouchDB handles,
 * instead of a body read PouchDB never awaits (an unhandled rejection).
 * Team sync uses no continuous feeds, so every answer is finite.
 */
export function selectorInQueryFetch(base: FetchFunction = (url, init) => fetch(url, init)): FetchFunction {
  return async (url, init) => {
    let res: Response;
    let body: ArrayBuffer;
    try {
      res = await base(withSelectorInQuery(url, init), init);
      body = await res.arrayBuffer();
    } catch (error) {
      if (init?.signal?.aborted) throw error;
      // The server went away: an answer PouchDB's error path handles, marked so the adapter names the problem.
      return new Response(JSON.stringify({ error: 'unreachable', reason: `${UNREACHABLE_REASON} (${error instanceof Error ? error.message : String(error)})` }), { status: 503, headers: { 'content-type': 'application/json' } });
    }
    return new Response(res.status === 204 || res.status === 304 ? null : body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}
