// npm run package: the built dist/ as a Web-Store-ready zip in release/
// (no source maps, no tests or sources, manifest version from package.json,
// no "key"). Run after `npm run build`; scripts/check-package.mjs checks it.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { packageFiles, zipFiles } from './package-lib.mjs';

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

const walk = (dir) => readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : [join(dir, f)]));
const built = Object.fromEntries(walk(dist).map((f) => [relative(dist, f).split('\\').join('/'), new Uint8Array(readFileSync(f))]));
const files = packageFiles(built, version);
const zip = zipFiles(files);
mkdirSync(join(root, 'release'), { recursive: true });
const out = join(root, 'release', `apprentice-${version}.zip`);
writeFileSync(out, zip);
const kept = Object.keys(files).length;
console.log(`package: ${relative(root, out)} — ${kept} files (of ${Object.keys(built).length} built), ${(zip.length / 1024).toFixed(1)} KiB`);
