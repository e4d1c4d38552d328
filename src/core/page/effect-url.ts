/**
 * A URL as the autonomy gate compares it: what it does, not how the visitor
 * arrived. The whole URL counts — path, query and fragment — because a query
 * carries the effect (`?to=mallory&amount=500`, `?confirm=yes`); only keys
 * that analytics and ad networks add, which a site never acts on, and
 * anti-forgery tokens are left out. The same lists leave fields out of a
 * form's data (target-fingerprint.ts). Page types (regularize-url.ts) may merge values for learning; an
 * approval is of this URL only (issue 30).
 */

/** Query keys that only track a visit (matched without case). The one list: add here. */
export const TRACKING_KEYS: ReadonlySet<string> = new Set([
  'fbclid', 'gclid', 'gclsrc', 'dclid', 'gbraid', 'wbraid', 'msclkid', 'yclid', 'twclid', 'ttclid', 'igshid', 'li_fat_id',
  'mc_cid', 'mc_eid', '_ga', '_gl', '_hsenc', '_hsmi', 'mkt_tok', 'oly_anon_id', 'oly_enc_id', 'vero_id', 'rb_clickid', 's_cid',
]);
/** Key prefixes of the same kind: `utm_source`, `utm_campaign`, … */
const TRACKING_PREFIXES: readonly string[] = ['utm_'];

/**
 * Anti-forgery fields (and query keys) of common frameworks: new on every page
 * load or session, checked by the site, never what the request does. Compared,
 * they would make every approval of a protected form lapse on the next visit.
 */
export const ANTI_FORGERY_KEYS: ReadonlySet<string> = new Set([
  'csrf', '_csrf', 'csrf_token', '_csrf_token', 'csrftoken', 'csrfmiddlewaretoken', 'xsrf', '_xsrf', 'xsrf_token',
  'authenticity_token', '__requestverificationtoken', '_token', 'form_key', '_wpnonce', 'form_build_id', 'form_token',
]);

export function isTrackingKey(key: string): boolean {
  const k = key.toLowerCase();
  return TRACKING_KEYS.has(k) || TRACKING_PREFIXES.some((p) => k.startsWith(p));
}

/** A query key or form field that says nothing about the effect: tracking, or anti-forgery. */
export function carriesNoEffect(key: string): boolean {
  return isTrackingKey(key) || ANTI_FORGERY_KEYS.has(key.toLowerCase());
}

/** The URL normalized by the URL parser, keys that carry no effect removed; the text itself when it does not parse. */
export function effectUrl(url: string): string;
export function effectUrl(url: string | undefined): string | undefined;
export function effectUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  const kept = [...u.searchParams].filter(([key]) => !carriesNoEffect(key));
  if (kept.length !== [...u.searchParams].length) {
    // Rebuilt only when something was dropped, so the rest keeps its spelling.
    u.search = new URLSearchParams(kept).toString();
  }
  return u.href;
}
