/**
 * URL regularization: the page *type* a URL is an instance of, keyed by origin.
 * Retrieval starts by keeping only memory recorded on the same
 * regularized URL (§4.1), so two product pages must map to one key while a
 * product page and a cart must not.
 *
 * `regUrl` = path + kept query + routing fragment, where instance parts become
 * typed placeholders:
 *   {id}     numeric ids (`42`), short alphanumeric codes with digits (`B0CHX1W1XY`, `1abc2de`),
 *            random-looking mixed-case codes (`dQwAwZWgXcQ`)
 *   {uuid}   8-4-4-4-12 hex
 *   {hash}   hex of ≥ 16 chars with a digit (commit SHAs, secret keys), base64-ish tokens
 *            (contain `=`, or `+` with digits), long (≥ 20) mixed-case/digit tokens
 *   {date}   `2024-01-31`, `20240131`, or `2024/01/31` and `2024/01` as consecutive segments
 *   {coords} map positions such as `@40.7,-74.0,12z`
 *   {slug}   an instance name; see the slug rules below
 *   {path}   a file path inside a repository (`/blob/{ref}/{path}`)
 * A file extension is kept (`{slug}.html`, `{id}.html`). Trailing slashes and empty segments go.
 *
 * Slug rules, in order (a literal segment becomes {slug}, or is dropped, when):
 *   1. it has ≥ 2 parts split on - _ + or space and one part has a digit (`123-blue-shirt`,
 *      `blue-shirt-p123`, `iphone-15-pro`), unless it is a step word and a small number (`step-2`);
 *   2. it follows {id}/{uuid}/{hash} and has ≥ 3 parts (≥ 2 of them words): a decorative title after an id
 *      (`/questions/123/how-to-parse-json`, Reddit's `/comments/{id}/my_first_post`) is DROPPED,
 *      because the same page is reached with and without it; two-word segments there are kept
 *      (`/orders/{id}/cancel-order` is its own page type);
 *   3. it follows an instance parent (`/products/blue-shirt`, `/t/some-topic/123`, `/r/programming`);
 *      parents `dir`/`directions` make every following literal segment an instance;
 *   4. it follows {date} (`/2024/01/31/hello`);
 *   5. it has ≥ 4 alphabetic word parts anywhere (`/how-to-train-your-dragon`);
 *   6. it comes right before `dp`: Amazon's optional `/Product-Name/dp/{id}` prefix is DROPPED;
 *   7. it is the last segment, ends in .html/.htm and has ≥ 2 parts: Magento-style product pages
 *      (`/radiant-tee.html`). Two-word static pages (`/about-us.html`) merge too; one-word ones
 *      (`/women.html`, `/index.html`) are kept.
 * Rules 2–6 never touch structural words (`new`, `edit`, `search`, `category`, …). A one- to
 * three-word segment with no digit and no parent is kept: `sign-in`, `order-history` and
 * `terms-of-service` are page types, not instances.
 * Forges: GitLab's namespace before `/-/` folds into one `{slug}` (group depth varies); an
 * `owner/repo` pair before a repository section (`pull`, `issues`, `blob`, …) becomes `{slug}/{slug}`;
 * after `blob`/`tree`/`raw`/`blame` come a ref (classified as usual) and a file `{path}`.
 *
 * Query: keys sorted; tracking and session keys dropped (utm_*, gclid, fbclid, sid, form_key, …);
 * values abstracted to `{value}` (an empty value stays empty) except for STRUCTURAL_QUERY_KEYS
 * (sort, order, dir, page, per_page, limit, view, tab, mode, type, status, state, category,
 * filter/facet and keys starting with them, route, action, …) whose values are kept, themselves
 * passed through the id/uuid/hash rules so a secret in a kept value is still hidden.
 * `q=shoes&page=2` → `page=2&q={value}`.
 *
 * Fragments are dropped unless they route: `#/users/42/edit` and `#!/users/42` are regularized like
 * a path (with their own query) and appended as `#/…` / `#!/…`.
 *
 * Unparseable input never throws: a relative path (`/a/42`) is regularized with origin '';
 * anything else returns `{ origin: '', regUrl: <trimmed input> }`. Opaque schemes (data:, blob:,
 * javascript:, mailto:, tel:, sms:) return `{ origin: '<scheme>:', regUrl: '{opaque}' }` so they cannot
 * bloat memory or store an address.
 */

export interface RegularizedUrl {
  /** `https://shop.example` (scheme, host, non-default port); '' when the input had none. */
  origin: string;
  regUrl: string;
}

export interface RegularizeOptions {
  /**
   * Cut the path at the first of these segments (inclusive), as the method's authors did for
   * Magento admin grids whose `/filter/<base64>/` encodes the grid state. Default: none.
   */
  stopAtSegments?: readonly string[];
}

const STRUCTURAL_QUERY_KEYS = new Set([
  'sort', 'sort_by', 'sortby', 'sort_order', 'order', 'orderby', 'order_by', 'dir', 'direction',
  'page', 'per_page', 'perpage', 'page_size', 'pagesize', 'limit',
  'view', 'tab', 'mode', 'type', 'status', 'state', 'scope', 'section',
  'category', 'cat', 'filter', 'facet',
  'route', 'action', 'do', 'op', 'module', 'controller',
]);
const STRUCTURAL_QUERY_PREFIXES = ['filter', 'facet'];

const DROPPED_QUERY_KEYS = new Set([
  'gclid', 'dclid', 'fbclid', 'msclkid', 'yclid', 'igshid', 'mc_cid', 'mc_eid', '_ga', '_gl', 'ref', 'ref_', 'referrer',
  'spm', 'si', 'feature', 'sid', 'sessionid', 'session_id', 'phpsessid', 'jsessionid', 'form_key', 'csrf', 'csrf_token',
  '_', 'cachebuster', 'nocache',
]);
const DROPPED_QUERY_PREFIXES = ['utm_', 'pk_', 'hsa_'];

/** After one of these, the next literal segment names an instance. */
const INSTANCE_PARENTS = new Set([
  'products', 'product', 'p', 'item', 'items', 'listing', 'listings', 'posts', 'post', 'article', 'articles', 'blog', 'news',
  'questions', 'question', 't', 'topic', 'topics', 'thread', 'threads', 'r', 'c', 'u', 'user', 'users', 'profile', 'profiles',
  'people', 'member', 'members', 'collections', 'collection', 'category', 'categories', 'tag', 'tags', 'brand', 'brands',
  'place', 'search', 'shop', 'store', 'stores', 'wiki', 'recipe', 'recipes', 'video', 'videos', 'channel', 'show', 'shows',
  's', 'tagged',
]);
const MULTI_INSTANCE_PARENTS = new Set(['dir', 'directions']);

/** Words that are page types or actions, never instances, whatever precedes them. */
const STRUCTURAL_WORDS = new Set([
  ...INSTANCE_PARENTS, ...MULTI_INSTANCE_PARENTS,
  'new', 'edit', 'create', 'delete', 'update', 'add', 'remove', 'view', 'list', 'index', 'all', 'latest', 'top', 'hot', 'rising',
  'popular', 'featured', 'trending', 'settings', 'preferences', 'admin', 'login', 'logout', 'signin', 'signup', 'register',
  'account', 'cart', 'checkout', 'page', 'archive', 'feed', 'rss', 'comments', 'reviews', 'review', 'about', 'contact', 'help',
  'faq', 'terms', 'privacy', 'api', 'home', 'dashboard', 'files', 'commits', 'commit', 'issues', 'pulls', 'pull', 'merge_requests',
  'blob', 'tree', 'raw', 'history', 'activity', 'wishlist', 'compare', 'orders', 'order', 'dp', 'gp', 'answers', 'followers',
  'following', 'likes', 'photos', 'media', 'maps', 'filter', 'key', 'results', 'overview', 'details', 'info', 'edit-profile',
]);
/** A forge `owner/repo` pair is recognised by one of these in third position. */
const REPO_SECTIONS = new Set([
  'pull', 'pulls', 'issues', 'blob', 'tree', 'raw', 'blame', 'commit', 'commits', 'compare', 'actions', 'releases',
  'branches', 'milestones', 'discussions', 'merge_requests', 'pipelines', 'wiki', 'src', 'pulse', 'graphs',
]);
const FILE_PATH_PARENTS = new Set(['blob', 'tree', 'raw', 'blame']);
const STEP_WORDS = new Set(['step', 'page', 'part', 'phase', 'stage', 'level', 'tab', 'v']);

/** Extensions kept after a regularized base: `{slug}.html`. */
const EXTENSIONS = new Set([
  'html', 'htm', 'shtml', 'xhtml', 'php', 'asp', 'aspx', 'jsp', 'jspx', 'cfm', 'cgi', 'pl', 'do', 'action',
  'xml', 'json', 'rss', 'atom', 'txt', 'csv', 'pdf', 'jpg', 'jpeg', 'png', 'gif', 'webp', 'svg', 'mp4', 'zip',
]);

/** Schemes whose "path" is content or an address, never a page type. */
const OPAQUE_SCHEMES = new Set(['data:', 'blob:', 'javascript:', 'mailto:', 'tel:', 'sms:']);

type Placeholder = '{id}' | '{uuid}' | '{hash}' | '{date}' | '{coords}' | '{slug}' | '{path}';
const PLACEHOLDERS = new Set<string>(['{id}', '{uuid}', '{hash}', '{date}', '{coords}', '{slug}', '{path}']);

export function regularizeUrl(url: string, options: RegularizeOptions = {}): RegularizedUrl {
  const raw = url.trim();
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    if (raw.startsWith('/')) {
      try {
        return { origin: '', regUrl: regularizeLocation(new URL(raw, 'http://relative.invalid'), options) };
      } catch { /* fall through */ }
    }
    return { origin: '', regUrl: raw };
  }
  const scheme = parsed.protocol;
  if (OPAQUE_SCHEMES.has(scheme)) return { origin: scheme, regUrl: '{opaque}' };
  const origin = parsed.origin !== 'null' ? parsed.origin : parsed.host ? `${scheme}//${parsed.host}` : scheme === 'file:' ? 'file://' : scheme;
  return { origin, regUrl: regularizeLocation(parsed, options) };
}

function regularizeLocation(parsed: URL, options: RegularizeOptions): string {
  let out = regularizePath(parsed.pathname, options) + regularizeQuery(parsed.search);
  const route = /^#(!?)\/(.*)$/s.exec(parsed.hash);
  if (route) {
    // The route is an in-app path with its own query: regularize it the same way.
    const inner = new URL(`/${route[2] ?? ''}`, 'http://route.invalid');
    out += `#${route[1] ?? ''}${regularizePath(inner.pathname, options)}${regularizeQuery(inner.search)}`;
  }
  return out;
}

function regularizePath(pathname: string, options: RegularizeOptions): string {
  let segments = pathname.split('/').filter((s) => s !== '').map(decodeSegment).filter((s) => s !== '');
  // Amazon-style tracking segments carry no page type.
  segments = segments.filter((s) => !/^ref_?=/i.test(s));
  if (options.stopAtSegments && options.stopAtSegments.length > 0) {
    const stop = segments.findIndex((s) => options.stopAtSegments?.includes(s));
    if (stop >= 0) segments = segments.slice(0, stop);
  }
  // GitLab: everything before `/-/` is the (variable-depth) namespace of the project.
  const gitlabMarker = segments.indexOf('-');
  let head: string[] = [];
  if (gitlabMarker >= 1) {
    head = ['{slug}'];
    segments = segments.slice(gitlabMarker);
  } else if (segments.length >= 3 && REPO_SECTIONS.has((segments[2] ?? '').toLowerCase())
      && isPlainName(segments[0] ?? '') && isPlainName(segments[1] ?? '')) {
    head = ['{slug}', '{slug}'];
    segments = segments.slice(2);
  }

  const out: string[] = [...head];
  let multiInstance = false;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] ?? '';
    const date = matchDateRun(segments, i);
    if (date > 0) { out.push('{date}'); i += date - 1; continue; }

    const { base, ext } = splitExtension(segment);
    const lower = base.toLowerCase();
    // Already regularized (imported memory, a regUrl fed back in): keep it, so the function is idempotent.
    let placeholder: Placeholder | null = isPlaceholder(base) ? base : classifyIntrinsic(base);
    if (!placeholder) {
      const previous = (out.at(-1) ?? '').replace(/\.[^.]*$/, '');
      const last = i === segments.length - 1;
      const verdict = slugRule(base, previous, segments[i + 1] ?? '', multiInstance)
        ?? (last && /^\.html?$/i.test(ext) && wordParts(base).length >= 2 && !STRUCTURAL_WORDS.has(lower) ? 'slug' : null); // rule 7
      if (verdict === 'drop') continue;
      if (verdict === 'slug') placeholder = '{slug}';
    }
    if (MULTI_INSTANCE_PARENTS.has(lower)) multiInstance = true;
    else if (placeholder === null && STRUCTURAL_WORDS.has(lower)) multiInstance = false;
    out.push(placeholder ? placeholder + ext : encodeLiteral(segment));

    // A file path after a ref: its depth varies, so it is one placeholder.
    if (FILE_PATH_PARENTS.has(lower) && !placeholder && i + 1 < segments.length) {
      const ref = segments[i + 1] ?? '';
      out.push(isPlaceholder(ref) ? ref : classifyIntrinsic(ref) ?? encodeLiteral(ref));
      if (i + 2 < segments.length) out.push('{path}');
      break;
    }
  }
  return `/${out.join('/')}`;
}

function isPlaceholder(s: string): s is Placeholder {
  return PLACEHOLDERS.has(s);
}

/** A name that can be an owner or a repository: not structural, not already an id. */
function isPlainName(s: string): boolean {
  return /^[A-Za-z0-9][\w.-]*$/.test(s) && !STRUCTURAL_WORDS.has(s.toLowerCase()) && s !== '-';
}

/** How many consecutive segments starting at i spell a date (YYYY/MM[/DD]); 0 if none. */
function matchDateRun(segments: string[], i: number): number {
  const [y, m, d] = [segments[i], segments[i + 1], segments[i + 2]];
  if (!y || !m || !/^(19|20)\d\d$/.test(y) || !/^\d{1,2}$/.test(m) || !isMonth(Number(m))) return 0;
  if (d !== undefined && /^\d{1,2}$/.test(d) && isDay(Number(d))) return 3;
  return 2;
}

const isMonth = (n: number): boolean => n >= 1 && n <= 12;
const isDay = (n: number): boolean => n >= 1 && n <= 31;

function splitExtension(segment: string): { base: string; ext: string } {
  const m = /^(.+)\.([A-Za-z0-9]{1,5})$/.exec(segment);
  if (m && m[1] && m[2] && EXTENSIONS.has(m[2].toLowerCase())) return { base: m[1], ext: `.${m[2]}` };
  return { base: segment, ext: '' };
}

/** Placeholders a segment earns on its own, whatever surrounds it. */
function classifyIntrinsic(s: string): Placeholder | null {
  if (s === '') return null;
  if (/^\d+$/.test(s)) return isCompactDate(s) ? '{date}' : '{id}';
  if (/^(19|20)\d\d-\d\d-\d\d(T[\d:.]+Z?)?$/.test(s) && isMonth(Number(s.slice(5, 7))) && isDay(Number(s.slice(8, 10)))) return '{date}';
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s)) return '{uuid}';
  if (/^@-?\d+(\.\d+)?,-?\d+(\.\d+)?(,[\d.]+[a-z]*)*$/i.test(s)) return '{coords}';
  if (/^[\d-]+$/.test(s) && /\d/.test(s)) return '{id}'; // 123-456, phone-like or compound numeric ids
  if (/^[0-9a-f]{16,}$/i.test(s) && /\d/.test(s)) return '{hash}';
  if (isToken(s)) return '{hash}';
  if (isAlphanumericCode(s)) return '{id}';
  return null;
}

function isCompactDate(s: string): boolean {
  if (!/^(19|20)\d{6}$/.test(s)) return false;
  return isMonth(Number(s.slice(4, 6))) && isDay(Number(s.slice(6, 8)));
}

/** Base64-ish or long random tokens (session keys, encoded filters, signed ids). */
function isToken(s: string): boolean {
  if (!/^[A-Za-z0-9+/=_\-.~!%]+$/.test(s)) return false;
  const digits = (s.match(/\d/g) ?? []).length;
  if (s.length >= 8 && /=/.test(s)) return true;
  if (/\+/.test(s) && digits > 0 && /[a-z]/.test(s) && /[A-Z]/.test(s)) return true;
  if (s.length >= 20 && digits >= 2 && /[A-Za-z]/.test(s) && !looksLikeWords(s)) return true;
  return false;
}

/** Short codes: `B0CHX1W1XY`, `1abc2de`, `dQwAwZWgXcQ`; not `oauth2`, `html5`, `v10`, `mp4`. */
function isAlphanumericCode(s: string): boolean {
  if (!/^[A-Za-z0-9]+$/.test(s) || s.length < 3 || s.length > 24) return false;
  if (/^v\d{1,3}$/i.test(s)) return false; // API versions
  const letters = /[A-Za-z]/.test(s);
  const digitRuns = s.match(/\d+/g) ?? [];
  const digits = digitRuns.join('').length;
  if (letters && digits >= 2) return true;
  // One digit: a code if it is not just a trailing version-like suffix (`oauth2`, `html5`).
  if (letters && digits === 1 && !/^[A-Za-z]+\d$/.test(s)) return true;
  // No digit: random mixed case with several lower→upper changes.
  if (!digits && s.length >= 8 && (s.match(/[a-z][A-Z]/g) ?? []).length >= 2) return true;
  return false;
}

function wordParts(s: string): string[] {
  return s.split(/[-_+ ]+/).filter((p) => p !== '');
}

function looksLikeWords(s: string): boolean {
  const parts = wordParts(s);
  return parts.length >= 2 && parts.filter((p) => /^[A-Za-z]+$/.test(p)).length >= parts.length / 2;
}

/** The slug rules of the module header: 'slug', 'drop', or null to keep the segment. */
function slugRule(base: string, previous: string, next: string, multiInstance: boolean): 'slug' | 'drop' | null {
  const lower = base.toLowerCase();
  const parts = wordParts(base);
  const words = parts.filter((p) => /^[A-Za-z]+$/.test(p)).length;
  if (next.toLowerCase() === 'dp' && !STRUCTURAL_WORDS.has(lower)) return 'drop'; // rule 6
  if ((previous === '{id}' || previous === '{uuid}' || previous === '{hash}') && parts.length >= 3 && words >= 2) return 'drop'; // rule 2
  if (parts.length >= 2 && parts.some((p) => /\d/.test(p))) { // rule 1
    const stepLike = parts.length === 2 && STEP_WORDS.has((parts[0] ?? '').toLowerCase()) && /^\d{1,3}$/.test(parts[1] ?? '');
    if (!stepLike) return 'slug';
  }
  if (STRUCTURAL_WORDS.has(lower) || /^special:/i.test(base)) return null; // MediaWiki Special: pages are page types
  if (multiInstance || INSTANCE_PARENTS.has(previous.toLowerCase())) return 'slug'; // rule 3
  if (previous === '{date}') return 'slug'; // rule 4
  if (words >= 4) return 'slug'; // rule 5
  return null;
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    // Malformed escapes: decode what is valid, keep the rest as literal text.
    return s.replace(/%[0-9A-Fa-f]{2}/g, (m) => { try { return decodeURIComponent(m); } catch { return m; } });
  }
}

/** Literal path text, re-encoded so a decoded `/` or `?` cannot change the shape of regUrl. */
function encodeLiteral(s: string): string {
  return encodeURIComponent(s).replace(/%40/g, '@').replace(/%3A/gi, ':').replace(/%2C/gi, ',');
}

function regularizeQuery(search: string): string {
  if (search === '' || search === '?') return '';
  const params = new URLSearchParams(search);
  const byKey = new Map<string, Set<string>>();
  for (const [rawKey, value] of params) {
    const key = rawKey.trim();
    const lower = key.toLowerCase();
    if (key === '' || DROPPED_QUERY_KEYS.has(lower) || DROPPED_QUERY_PREFIXES.some((p) => lower.startsWith(p))) continue;
    const kept = isStructuralKey(lower) ? keptValue(value) : value === '' ? '' : '{value}';
    let values = byKey.get(key);
    if (!values) byKey.set(key, (values = new Set()));
    values.add(kept);
  }
  const pairs: string[] = [];
  for (const key of [...byKey.keys()].sort()) {
    for (const value of [...(byKey.get(key) ?? [])].sort()) {
      pairs.push(`${encodeQueryPart(key)}=${PLACEHOLDERS.has(value) || value === '{value}' ? value : encodeQueryPart(value)}`);
    }
  }
  return pairs.length > 0 ? `?${pairs.join('&')}` : '';
}

function isStructuralKey(lower: string): boolean {
  return STRUCTURAL_QUERY_KEYS.has(lower) || STRUCTURAL_QUERY_PREFIXES.some((p) => lower.startsWith(p));
}

/** Structural values are kept, but ids, UUIDs and tokens inside them are still abstracted. */
function keptValue(value: string): string {
  const v = value.trim();
  if (/^\d+$/.test(v) && v.length <= 4) return v; // page=2, limit=50
  const intrinsic = classifyIntrinsic(v);
  if (intrinsic === '{uuid}' || intrinsic === '{hash}' || intrinsic === '{date}') return intrinsic;
  if (intrinsic === '{id}' && v.length > 4) return '{id}';
  return v.length > 80 ? '{value}' : v;
}

function encodeQueryPart(s: string): string {
  return encodeURIComponent(s).replace(/%5B/gi, '[').replace(/%5D/gi, ']').replace(/%2F/gi, '/').replace(/%3A/gi, ':').replace(/%2C/gi, ',');
}

/** Display/search tokens of a regUrl: `/products/{slug}?sort=price` → ['products', '{slug}', 'sort=price']. */
export function urlTokens(regUrl: string): string[] {
  return regUrl.split(/[/?&#!]+/).filter((t) => t !== '');
}
