// Checks the store zip written by scripts/package.mjs: the manifest at its
// root (MV3, version = package.json, no key, store limits on name and
// description, a 128 px icon), every file the manifest and the HTML pages
// reference, and nothing that must not ship (source maps, tests, sources).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkPackage } from './package-lib.mjs';
import { helpIfAsked } from './cli-help.mjs';

helpIfAsked('usage: node scripts/check-package.mjs [zip]   (run by npm run package)\n  checks the Web Store zip (default: release/apprentice-<version>.zip)');

const root = new URL('..', import.meta.url).pathname;
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const path = process.argv[2] ?? join(root, 'release', `apprentice-${version}.zip`);
const problems = checkPackage(new Uint8Array(readFileSync(path)), version);
if (problems.length > 0) {
  console.error(`check-package: ${path} is not ready for the Web Store:\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log(`check-package: ok (${path})`);
