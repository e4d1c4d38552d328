// The Web Store package: which built files go in, how the manifest is
// rewritten for the store, and the checks a zip must pass. Shared by
// scripts/package.mjs (writes the zip) and scripts/check-package.mjs (reads
// it back), and unit-tested. fflate both writes and reads zips, so the check
// reads exactly the bytes that would be uploaded.
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';

/** Paths that never belong in the store zip. */
const EXCLUDED = [
  /\.map$/, // source maps
  /(^|\/)\./, // dot files and folders (crxjs's .vite/ build manifest)
  /(^|\/)(test|tests|__tests__|fixtures|e2e)\//,
  /\.(test|spec|e2e)\.[cm]?[jt]sx?$/,
  /\.tsx?$/, // TypeScript sources (the bundle is JavaScript)
];

export const isExcluded = (path) => EXCLUDED.some((re) => re.test(path));

const SOURCE_MAP_COMMENT = /\n?\/[/*]# sourceMappingURL=[^\n]*?(\*\/)?\s*$/;

/**
 * The store's manifest: version from package.json; no `key` (the Web Store
 * assigns the extension's key and rejects uploads that carry one — the key in
 * the source manifest only pins the id for local, unpacked testing).
 */
export function storeManifest(manifest, version) {
  const { key: _key, ...rest } = manifest;
  const war = rest.web_accessible_resources;
  // The bundler lists each chunk's source map as web-accessible; the maps are not shipped.
  return {
    ...rest,
    version,
    ...(Array.isArray(war) ? { web_accessible_resources: war.map((w) => ({ ...w, resources: (w.resources ?? []).filter((r) => !isExcluded(r)) })) } : {}),
  };
}

/** Files (path → bytes) of the store zip, from the built dist files. */
export function packageFiles(distFiles, version) {
  const out = {};
  for (const [path, bytes] of Object.entries(distFiles)) {
    if (isExcluded(path)) continue;
    if (path === 'manifest.json') {
      out[path] = strToU8(`${JSON.stringify(storeManifest(JSON.parse(strFromU8(bytes)), version), null, 2)}\n`);
    } else if (/\.(js|css)$/.test(path)) {
      // The maps are not shipped, so their references go too.
      out[path] = strToU8(strFromU8(bytes).replace(SOURCE_MAP_COMMENT, '\n'));
    } else {
      out[path] = bytes;
    }
  }
  return out;
}

/** A deterministic zip: sorted entries, a fixed timestamp. */
export function zipFiles(files) {
  const sorted = Object.fromEntries(Object.keys(files).sort().map((p) => [p, [files[p], { mtime: new Date('2020-01-01T00:00:00Z') }]]));
  return zipSync(sorted, { level: 9 });
}

/** Files an HTML page loads from the package (src/href that are not URLs with a scheme). */
function htmlRefs(path, html) {
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '';
  return [...html.matchAll(/\b(?:src|href)="([^"#?]+)[^"]*"/g)]
    .map((m) => m[1])
    .filter((ref) => !/^[a-z][a-z0-9+.-]*:/i.test(ref))
    .map((ref) => (ref.startsWith('/') ? ref.slice(1) : normalize(dir + ref)));
}

function normalize(path) {
  const parts = [];
  for (const part of path.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}

/** Every problem with a store zip (empty when it is ready to upload). */
export function checkPackage(zipBytes, expectedVersion) {
  const problems = [];
  let files;
  try {
    files = unzipSync(zipBytes);
  } catch (err) {
    return [`not a readable zip (${err instanceof Error ? err.message : String(err)})`];
  }
  const paths = Object.keys(files);
  if (!files['manifest.json']) return ['manifest.json is not at the root of the zip'];
  let m;
  try {
    m = JSON.parse(strFromU8(files['manifest.json']));
  } catch {
    return ['manifest.json is not valid JSON'];
  }
  if (m.manifest_version !== 3) problems.push(`manifest_version is ${m.manifest_version}, not 3`);
  if (m.version !== expectedVersion) problems.push(`version is ${m.version}, package.json says ${expectedVersion}`);
  const numbers = String(m.version ?? '').split('.');
  if (numbers.length > 4 || !numbers.every((n) => /^(0|[1-9]\d{0,4})$/.test(n) && Number(n) <= 65535)) {
    problems.push(`version ${m.version} is not 1–4 dot-separated integers of at most 65535`);
  }
  if ('key' in m) problems.push('manifest carries a "key" (the Web Store rejects it)');
  if (typeof m.name !== 'string' || m.name.length === 0 || m.name.length > 75) problems.push('name must be 1–75 characters');
  if (m.short_name !== undefined && String(m.short_name).length > 12) problems.push('short_name is longer than 12 characters');
  if (typeof m.description !== 'string' || m.description.length > 132) problems.push('description must be at most 132 characters');
  if (!m.icons?.['128']) problems.push('no 128×128 icon (the store listing needs it)');
  if (JSON.stringify(m.content_security_policy ?? {}).includes('unsafe-eval')) problems.push('CSP allows unsafe-eval');

  const referenced = [
    m.background?.service_worker,
    m.action?.default_popup,
    m.side_panel?.default_path,
    m.options_page,
    m.options_ui?.page,
    ...Object.values(m.icons ?? {}),
    ...Object.values(m.action?.default_icon ?? {}),
    ...(m.content_scripts ?? []).flatMap((c) => [...(c.js ?? []), ...(c.css ?? [])]),
    ...(m.web_accessible_resources ?? []).flatMap((w) => (w.resources ?? []).filter((r) => !r.includes('*'))),
  ].filter(Boolean);
  for (const path of paths.filter((p) => p.endsWith('.html'))) referenced.push(...htmlRefs(path, strFromU8(files[path])));
  for (const ref of new Set(referenced)) if (!files[ref]) problems.push(`referenced file missing from the zip: ${ref}`);

  for (const path of paths) {
    if (isExcluded(path)) problems.push(`file that must not ship: ${path}`);
    if (/\.(js|css)$/.test(path)) {
      const text = strFromU8(files[path]);
      if (/sourceMappingURL=/.test(text)) problems.push(`${path} still points to a source map`);
      if (/\.js$/.test(path) && (/\bnew Function\(/.test(text) || /\beval\(/.test(text))) problems.push(`${path} uses eval or new Function`);
    }
  }
  return problems;
}
