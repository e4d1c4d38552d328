// Keeps the architecture honest: src/core runs in Node, so it may not import
// browser APIs, adapters or entry points; adapters may not import entry points;
// the UI and the content script reach storage and models only through the
// background (never adapters/), and nothing imports the background.
// Usage: node scripts/check-boundaries.mjs [root]   (root defaults to the repository)
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

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
if (problems.length) {
  console.error(`Architecture boundary violations (${problems.length}):\n` + problems.join('\n'));
  process.exit(1);
}
console.log('boundaries ok');
