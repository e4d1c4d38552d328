// The checks `scripts/check-dist.mjs` runs on the built dist/, as a pure
// function over its files (path → text) so the unit tests can show that each
// one fails. Problems come back as sentences; none means the build is fine.

/** A classic content script that loads code at run time: crxjs's loader, or any ES module syntax. */
const LOADS_MODULES = [
  [/\bimport\s*\(/, 'a dynamic import('],
  [/\bchrome\.runtime\.getURL\s*\(/, 'chrome.runtime.getURL('],
  [/^\s*import\s*[\w{*'"]/m, 'an import statement'],
  [/^\s*export\s+(\{|default|const|let|var|function|class|async)/m, 'an export statement'],
];

/**
 * @param {Record<string, string>} files every file of dist/, by relative path (binary files may hold any string)
 * @returns {{ problems: string[], referenced: number }}
 */
export function distProblems(files) {
  const problems = [];
  const text = files['manifest.json'];
  if (text === undefined) return { problems: ['dist/manifest.json missing'], referenced: 0 };
  let m;
  try {
    m = JSON.parse(text);
  } catch (err) {
    return { problems: [`dist/manifest.json does not parse: ${err.message}`], referenced: 0 };
  }
  const contentScripts = (m.content_scripts ?? []).flatMap((c) => c.js ?? []);
  const refs = [
    m.background?.service_worker, m.action?.default_popup, m.side_panel?.default_path, m.options_page,
    ...Object.values(m.icons ?? {}), ...contentScripts,
  ].filter(Boolean);
  for (const r of refs) if (files[r] === undefined) problems.push(`manifest references missing file ${r}`);
  for (const [path, src] of Object.entries(files)) {
    if (!path.endsWith('.js')) continue;
    if (/\bnew Function\(/.test(src)) problems.push(`${path} contains new Function(`);
    if (/\beval\(/.test(src)) problems.push(`${path} contains eval(`);
  }
  if (JSON.stringify(m.content_security_policy ?? {}).includes('unsafe-eval')) problems.push('CSP allows unsafe-eval');
  // Exposure (docs/security.md): any page can fetch a web-accessible
  // resource at chrome-extension://<id>/<path> and so tell that Apprentice is
  // installed. Nothing needs one: content scripts are self-contained classic scripts.
  for (const war of m.web_accessible_resources ?? []) {
    const resources = war.resources ?? [];
    problems.push(`web_accessible_resources exposes ${resources.length === 0 ? 'an empty entry' : resources.join(', ')}: a page could fetch it to detect Apprentice`);
  }
  if (m.web_accessible_resources !== undefined && !Array.isArray(m.web_accessible_resources)) problems.push('web_accessible_resources is not a list');
  for (const path of contentScripts) {
    const src = files[path];
    if (src === undefined) continue;
    for (const [re, what] of LOADS_MODULES) {
      if (re.test(src)) problems.push(`content script ${path} contains ${what}: it must be one self-contained classic script`);
    }
  }
  for (const path of Object.keys(files)) if (path.endsWith('.map')) problems.push(`${path}: source maps are not shipped`);
  return { problems, referenced: refs.length };
}
