/**
 * PouchDB asks the server for a filtered changes feed with
 * `POST _changes?filter=_selector` and the selector in the body, as CouchDB
 * 2+ reads it. pouchdb-server (express-pouchdb 4.2) reads only the query
 * string and, without it, fails the whole server. This fetch also puts the
 * selector in the query string; CouchDB ignores the extra parameter.
 */
export type FetchFunction = (url: string | URL, init?: RequestInit) => Promise<Response>;

export function selectorInQueryFetch(base: FetchFunction = (url, init) => fetch(url, init)): FetchFunction {
  return (url, init) => {
    const text = String(url);
    if (!text.includes('/_changes') || !text.includes('filter=_selector') || typeof init?.body !== 'string') return base(url, init);
    let selector: unknown;
    try {
      selector = (JSON.parse(init.body) as { selector?: unknown }).selector;
    } catch {
      return base(url, init);
    }
    if (selector === undefined) return base(url, init);
    return base(`${text}&selector=${encodeURIComponent(JSON.stringify(selector))}`, init);
  };
}
