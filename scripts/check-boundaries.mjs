// Keeps the architecture honest: src/core runs in Node, so it may not import
// browser APIs, adapters or entry points; adapters may not import entry points;
// the UI and the content script reach storage and models only through the
// background (never adapters/), and nothing imports the background. Inside
// src/core, no two folders import each other (no cycles between folders).
// Learner zones: a learner folder (src/core/learning/<id>/) imports no other
// learner folder (shared helpers live in src/core/learning/shared/), and the
// seam (the files directly in src/core/learning/) imports no learner folder,
// except the registry.
// Usage: node scripts/check-boundaries.mjs [root]   (root defaults to the repository)
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { helpIfAsked } from './cli-help.mjs';

helpIfAsked('usage: node scripts/check-boundaries.mjs [root]   (npm run lint:boundaries)\n  the architecture rules: core imports no browser API, no folder cycles in src/core, sealed learner folders');

const root = process.argv[2] ? resolve(process.argv[2]) : new URL('..', import.meta.url).pathname;
const walk = (dir) => readdirSync(dir).flatMap((f) => {
  const p = join(dir, f);
  return statSync(p).isDirectory() ? walk(p) : /\.(ts|tsx)$/.test(f) ? [p] : [];
});

const rules = [
  {
    dir: 'src/core',
    forbidImports: [/^webextension-polyfill$/, /^idb$/, /^openai(\/|$)/, /^preact/, /^dom-accessibility-api$/, /\/(adapters|background|content|ui|protocol)\//],
    forbidCode: [/\bchrome\.[a-z]+/, /\bbrowser\.[a-z]+\./, /\bdocument\.[a-zA-Z]/, /\bwindow\.[a-zA-Z]/, /\blocalStorage\b/, /\bindexedDB\b/],
  },
  { dir: 'src/adapters', forbidImports: [/\/(background|content|ui)\//], forbidCode: [] },
  { dir: 'src/protocol', forbidImports: [/\/(adapters|background|content|ui)\//], forbidCode: [] },
  {
    dir: 'src/ui',
    forbidImports: [/\/(adapters|background|content)\//],
    forbidCode: [],
    // Chrome's built-in model is probed where it lives, in the extension page
    // (issue 16 owns that adapter; moving the probe is left to it).
    allow: [['src/ui/app/provider-test-report.tsx', '../../adapters/chrome-ai/prompt-api-model.ts']],
  },
  { dir: 'src/content', forbidImports: [/\/(adapters|background|ui)\//], forbidCode: [] },
];

const problems = [];
for (const rule of rules) {
  let files = [];
  try { files = walk(join(root, rule.dir)); } catch { continue; }
  for (const file of files) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      const trimmed = line.trim();
      if (trimmed.startsWith('//') || trimmed.startsWith('*') || trimmed.startsWith('/*')) return;
      const m = line.match(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/);
      const allowed = m && (rule.allow ?? []).some(([f, spec]) => relative(root, file) === f && m[1] === spec);
      if (m && !allowed && rule.forbidImports.some((re) => re.test(m[1]))) problems.push(`${relative(root, file)}:${i + 1} imports ${m[1]}`);
      for (const re of rule.forbidCode) if (re.test(line)) problems.push(`${relative(root, file)}:${i + 1} uses ${re}`);
    });
  }
}
// Folder-level import cycles inside src/core: an edge a → b for every import
// from a file under core/a/ of a file under core/b/; any path back is a cycle.
const coreRoot = join(root, 'src/core');
let coreFiles = [];
try { coreFiles = walk(coreRoot); } catch { /* no core in this tree */ }
const folderOf = (file) => {
  const parts = relative(coreRoot, file).split('/');
  return parts.length > 1 ? parts[0] : null;
};
const edges = new Map();
for (const file of coreFiles) {
  const from = folderOf(file);
  if (from === null) continue;
  for (const m of readFileSync(file, 'utf8').matchAll(/(?:from\s+|import\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const to = folderOf(resolve(dirname(file), m[1]));
    if (to === null || to === from || relative(coreRoot, resolve(dirname(file), m[1])).startsWith('..')) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    if (!edges.get(from).has(to)) edges.get(from).set(to, relative(root, file));
  }
}
const reaches = (start, goal, seen = new Set()) => {
  if (start === goal) return true;
  if (seen.has(start)) return false;
  seen.add(start);
  return [...(edges.get(start)?.keys() ?? [])].some((next) => reaches(next, goal, seen));
};
for (const [from, tos] of edges) {
  for (const [to, file] of tos) {
    if (reaches(to, from)) problems.push(`${file} imports core/${to}, which imports core/${from} back (import cycle between folders of src/core)`);
  }
}

// Learner zones.
const learningRoot = join(root, 'src/core/learning');
/** Seam files that may name learner folders: the registry (UI-safe definitions, and factories). */
const REGISTRY_FILES = new Set(['registry.ts', 'registry-factories.ts']);
/** Seam files that may still name a learner folder: none (LearnerStores is declared with the registry). */
const SEAM_EXCEPTIONS = new Set([]);
let learningFiles = [];
try { learningFiles = walk(learningRoot); } catch { /* no learning folder in this tree */ }
const learnerFolderOf = (path) => {
  const rel = relative(learningRoot, path);
  if (rel.startsWith('..')) return undefined;
  const parts = rel.split('/');
  if (parts.length === 1) return null; // the seam
  return parts[0] === 'shared' ? 'shared' : parts[0];
};
for (const file of learningFiles) {
  const from = learnerFolderOf(file);
  const rel = relative(learningRoot, file);
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.forEach((line, i) => {
    const m = line.match(/(?:from\s+|import\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/);
    if (!m) return;
    const to = learnerFolderOf(resolve(dirname(file), m[1]));
    if (to === undefined || to === null || to === 'shared' || to === from) return;
    const where = `${relative(root, file)}:${i + 1} imports ${m[1]}`;
    if (from === 'shared') problems.push(`${where}: shared learning helpers import no learner folder`);
    else if (from !== null) problems.push(`${where}: a learner folder imports no other learner folder (move what both need to src/core/learning/shared/)`);
    else if (!REGISTRY_FILES.has(rel) && !SEAM_EXCEPTIONS.has(rel)) problems.push(`${where}: the learning seam imports no learner folder (only the registry does)`);
  });
}

if (problems.length) {
  console.error(`Architecture boundary violations (${problems.length}):\n` + problems.join('\n'));
  process.exit(1);
}
console.log('boundaries ok');
