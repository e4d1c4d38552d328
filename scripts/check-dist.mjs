// Post-build check of dist/ (or the folder given): the manifest parses, every
// file it references exists, nothing needs eval (MV3's CSP forbids it),
// nothing is web-accessible and the content scripts load no other file.
// The checks themselves live in dist-lib.mjs (unit-tested).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { distProblems } from './dist-lib.mjs';
import { helpIfAsked } from './cli-help.mjs';

helpIfAsked('usage: node scripts/check-dist.mjs [dist dir]   (run by npm run build)\n  the built extension: referenced files exist, no unsafe-eval, no new Function');

const dist = process.argv[2] ?? new URL('../dist/', import.meta.url).pathname;
if (!existsSync(dist)) {
  console.error(`check-dist: ${dist} does not exist (run the build first)`);
  process.exit(1);
}
const walk = (d) => readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [join(d, f)]));
const files = Object.fromEntries(walk(dist).map((f) => [relative(dist, f).split('\\').join('/'), readFileSync(f, 'latin1')]));
const { problems, referenced } = distProblems(files);
if (problems.length > 0) {
  console.error(`check-dist: ${dist} is not fit to load:\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log(`check-dist: ok (${referenced} referenced files, nothing web-accessible)`);
