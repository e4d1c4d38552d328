// A learner is one folder, src/learners/<id>/ (its core, views, tests, definition,
// factory): its id appears nowhere else in the code — not in src/ outside its
// folder, nor in bench/ or scripts/, except its own benchmarks (bench/<id>/:
// measurements of that learner alone, such as Meta-TTL's meta-training). The
// registry finds learners by globbing their folders, so it names none. Tests under
// test/ may name any learner. Ids are the folders of src/learners, so a new
// learner is checked from its first commit.
// There are no exceptions any more (issue 23: the last hand-named places, bench/trust, now read
// the registry): any place that names a learner fails.
// Usage: node scripts/check-learner-ids.mjs [root]
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { helpIfAsked } from './cli-help.mjs';

helpIfAsked('usage: node scripts/check-learner-ids.mjs [root]   (npm run lint:learner-ids)\n  a learner id appears only in its folder (src/learners/<id>/)');

const root = process.argv[2] ? resolve(process.argv[2]) : new URL('..', import.meta.url).pathname;
const walk = (dir) => {
  let names = [];
  try { names = readdirSync(dir); } catch { return []; }
  return names.flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? (f === 'node_modules' || f === 'out' ? [] : walk(p)) : /\.(ts|tsx|mjs|css|html)$/.test(f) ? [p] : [];
  });
};

const learning = join(root, 'src/learners');
let ids = [];
try { ids = readdirSync(learning).filter((f) => statSync(join(learning, f)).isDirectory()); } catch { /* no learners */ }
// The benchmark's default configurations: data naming learners, filtered by the registry when a folder is gone.
const SELF = new Set([relative(root, join(root, 'scripts/check-learner-ids.mjs')), 'src/core/learning/registry/bench-configurations.ts']);

// A learner is named by its id in any spelling (`jitrl`, `JitRL`, `Jitrl` in `JitrlSettings`, `Meta-TTL` for
// `metattl`: letters in order, hyphens between them allowed, any case) or by its label (`definition.ts`'s `label`).
// An all-capitals word that merely starts with the id (`CERTAIN` for `cer`) is another word.
const escape = (t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const spellings = (id) => new RegExp(`(?<![A-Za-z0-9_$])${[...id].map(escape).join('-?')}`, 'gi');
const labelOf = (id) => {
  try { return /\blabel:\s*(['"])(.+?)\1/.exec(readFileSync(join(learning, id, 'definition.ts'), 'utf8'))?.[2] ?? null; } catch { return null; }
};
const names = (line, id, label) => {
  for (const m of line.matchAll(spellings(id))) {
    const next = line[m.index + m[0].length] ?? '';
    if (/[a-z0-9_$]/.test(next)) continue; // a longer word: `cert`, `cerulean`
    if (/[A-Z]/.test(next) && m[0] === m[0].toUpperCase()) continue; // an all-capitals word: `CERTAIN`
    return true;
  }
  return label !== null && new RegExp(`(?<![A-Za-z0-9])${label.split(/\s+/).map(escape).join('\\s+')}(?![A-Za-z0-9])`, 'i').test(line);
};

const problems = [];
const labels = new Map(ids.map((id) => [id, labelOf(id)]));
for (const file of ['src', 'bench', 'scripts'].flatMap((d) => walk(join(root, d)))) {
  const rel = relative(root, file);
  if (SELF.has(rel)) continue;
  const text = readFileSync(file, 'utf8');
  for (const id of ids) {
    if (rel.startsWith(`src/learners/${id}/`) || rel.startsWith(`bench/${id}/`)) continue;
    const lines = text.split('\n');
    const at = lines.findIndex((l) => names(l, id, labels.get(id)));
    if (at < 0) continue;
    problems.push(`${rel}:${at + 1} names learner "${id}": a learner's id, label and types belong in its folder (src/learners/${id}/) and tests (reach it through the registry)`);
  }
}
if (problems.length > 0) {
  console.error(`check-learner-ids: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`check-learner-ids ok (${ids.length} learners: ${ids.join(', ')})`);
