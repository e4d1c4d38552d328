// Bundles the page layer (observe + act) into one IIFE that can be injected
// into any page: dist-inject/page-agent.js sets globalThis.__apprentice.
// Used by the observation benchmark and the DOM-level e2e tests.
import { build } from 'esbuild';

const root = new URL('../', import.meta.url).pathname;
const result = await build({
  entryPoints: [`${root}src/content/inject-entry.ts`],
  outfile: `${root}dist-inject/page-agent.js`,
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'chrome116',
  sourcemap: false,
  minify: false,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
});
const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
console.log(`build-page-agent: dist-inject/page-agent.js (${(bytes / 1024).toFixed(1)} KB)`);
