/** A readable name for a page type, from its regularized URL (used by learners' page descriptions and contrasts). */

const PLACEHOLDER_SEGMENT = /^(?:ID|HASH|UUID|DATE|SLUG|\*|\{.*\}|:.+|\d+|[0-9a-f]{8,}|[0-9a-f-]{36})$/i;

/** A readable page name from a regularized URL: `/settings/profile` → "Settings profile page", `/product/ID` → "Product detail page". */
export function pageNameFromUrl(regUrl: string): string {
  let path: string;
  try {
    path = new URL(regUrl).pathname;
  } catch {
    path = regUrl.split(/[?#]/)[0] ?? '';
  }
  const segments = path.split('/').filter(Boolean).map((s) => decodeURIComponentSafe(s).replace(/\.(?:html?|php|aspx?|jsp)$/i, ''));
  const words = segments.filter((s) => !PLACEHOLDER_SEGMENT.test(s)).map((s) => s.replace(/[-_+]+/g, ' ').trim()).filter(Boolean);
  const last = segments[segments.length - 1];
  if (words.length === 0) return last === undefined ? 'Home page' : 'Item page';
  const base = words.slice(-2).join(' ');
  const detail = last !== undefined && PLACEHOLDER_SEGMENT.test(last) ? ' detail' : '';
  return `${base.charAt(0).toUpperCase()}${base.slice(1)}${detail} page`;
}

function decodeURIComponentSafe(s: string): string {
  try { return decodeURIComponent(s); } catch { return s; }
}
