// Post-build check of dist/: the manifest parses, every file it references
// exists, and nothing in the bundle needs eval (MV3's CSP forbids it).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const dist = new URL('../dist/', import.meta.url).pathname;
const fail = (msg) => { console.error(`check-dist: ${msg}`); process.exit(1); };
if (!existsSync(join(dist, 'manifest.json'))) fail('dist/manifest.json missing');
const m = JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8'));
const refs = [
  m.background?.service_worker, m.action?.default_popup, m.side_panel?.default_path, m.options_page,
  ...Object.values(m.icons ?? {}), ...(m.content_scripts ?? []).flatMap((c) => c.js ?? []),
].filter(Boolean);
for (const r of refs) if (!existsSync(join(dist, r))) fail(`manifest references missing file ${r}`);
const walk = (d) => readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [join(d, f)]));
for (const f of walk(dist).filter((f) => f.endsWith('.js'))) {
  const src = readFileSync(f, 'utf8');
  if (/\bnew Function\(/.test(src)) fail(`${f} contains new Function(`);
  if (/\beval\(/.test(src)) fail(`${f} contains eval(`);
}
if (JSON.stringify(m.content_security_policy ?? {}).includes('unsafe-eval')) fail('CSP allows unsafe-eval');
// Exposure: pages can fetch web_accessible_resources; nothing there may be a source map (README "Security model").
for (const war of m.web_accessible_resources ?? []) {
  for (const r of war.resources ?? []) if (/\.map$/.test(r)) fail(`web_accessible_resources exposes the source map ${r}`);
}
for (const f of walk(dist).filter((f) => f.endsWith('.map'))) fail(`${f}: source maps are not shipped`);
console.log(`check-dist: ok (${refs.length} referenced files)`);
