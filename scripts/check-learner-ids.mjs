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
import { namesLearner } from './learner-names.mjs';

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

const labelOf = (id) => {
  try { return /\blabel:\s*(['"])(.+?)\1/.exec(readFileSync(join(learning, id, 'definition.ts'), 'utf8'))?.[2] ?? null; } catch { return null; }
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
    const at = lines.findIndex((l) => namesLearner(l, id, labels.get(id)));
    if (at < 0) continue;
    problems.push(`${rel}:${at + 1} names learner "${id}": a learner's id, label and types belong in its folder (src/learners/${id}/) and tests (reach it through the registry)`);
  }
}
if (problems.length > 0) {
  console.error(`check-learner-ids: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`check-learner-ids ok (${ids.length} learners: ${ids.join(', ')})`);
