// The options page must not carry the learners' code: it needs their
// definitions (names, settings schemas), not their factories. This bundles the
// options page's entry as the extension ships it (esbuild, minified) and sums
// the bytes that come from src/core/learning/ and src/learners/ (esbuild's metafile says how
// many output bytes each input contributed). The budget is per learner folder
// (its definition, settings schema and action schemas: MAX_PER_LEARNER_BYTES)
// and for the kernel (src/core/learning/: MAX_KERNEL_BYTES), not one total: a
// new learner brings its own definition, so a total cap would fail the
// scaffold once the learners fill it; a factory pulled in (its method, its
// stores) still goes far over its folder's budget.
// Usage: node scripts/check-options-bundle.mjs [--list]
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expandImportMetaGlob } from './import-meta-glob.mjs';
import { helpIfAsked } from './cli-help.mjs';

helpIfAsked('usage: node scripts/check-options-bundle.mjs [--list]   (npm run lint:bundle)\n  the options page bundles at most 8 KB of each learner folder and 3 KB of src/core/learning/\n  --list        the learner files in the bundle, largest first');

export const MAX_PER_LEARNER_BYTES = 8 * 1024;
export const MAX_KERNEL_BYTES = 3 * 1024;

const root = new URL('..', import.meta.url).pathname;
const result = await build({
  entryPoints: [join(root, 'src/ui/options/main.tsx')],
  bundle: true,
  write: false,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: 'chrome116',
  outdir: join(root, 'dist-measure'),
  jsx: 'automatic',
  jsxImportSource: 'preact',
  loader: { '.css': 'empty' },
  metafile: true,
  logLevel: 'error',
  // The registry globs the learner folders (Vite's import.meta.glob), as the extension build does.
  plugins: [{
    name: 'import-meta-glob',
    setup(b) {
      b.onLoad({ filter: /src\/.*\.tsx?$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.glob')) return undefined;
        return { contents: expandImportMetaGlob(text, dirname(args.path)), loader: args.path.endsWith('x') ? 'tsx' : 'ts', resolveDir: dirname(args.path) };
      });
    },
  }],
});
const output = Object.values(result.metafile.outputs).find((o) => o.entryPoint !== undefined);
if (output === undefined) throw new Error('check-options-bundle: esbuild produced no entry output');
const learning = Object.entries(output.inputs).filter(([path]) => (path.includes('src/core/learning/') || path.includes('src/learners/')));
const bytes = learning.reduce((n, [, input]) => n + input.bytesInOutput, 0);
if (process.argv.includes('--list')) {
  for (const [path, input] of learning.sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput)) console.log(`${String(input.bytesInOutput).padStart(7)}  ${path}`);
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
// By part: each learner folder, and the kernel.
const parts = new Map();
for (const [path, input] of learning) {
  const folder = /src\/learners\/([^/]+)\//.exec(path)?.[1];
  const part = folder === undefined ? 'src/core/learning/' : `src/learners/${folder}/`;
  parts.set(part, (parts.get(part) ?? 0) + input.bytesInOutput);
}
const over = [...parts].filter(([part, n]) => n > (part.startsWith('src/learners/') ? MAX_PER_LEARNER_BYTES : MAX_KERNEL_BYTES));
const summary = [...parts].map(([part, n]) => `${part} ${kb(n)}`).join(', ');
if (over.length > 0) {
  console.error(`check-options-bundle: the options page bundles too much learner code: ${over.map(([part, n]) => `${part} ${kb(n)}`).join(', ')} (at most ${kb(MAX_PER_LEARNER_BYTES)} per learner, ${kb(MAX_KERNEL_BYTES)} of the kernel); ${kb(bytes)} of ${kb(output.bytes)} in all. Run with --list to see which files; import definitions (registry.ts), not factories.`);
  process.exit(1);
}
console.log(`check-options-bundle ok: ${kb(bytes)} of learner code in the options page (${summary}; at most ${kb(MAX_PER_LEARNER_BYTES)} per learner, ${kb(MAX_KERNEL_BYTES)} of the kernel), ${kb(output.bytes)} in all`);
