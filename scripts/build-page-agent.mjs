// Bundles the page layer (observe + act) into IIFEs that can be injected into
// any page (used by the benchmarks and the DOM-level e2e tests):
// - dist-inject/page-agent.js: listener marks + page layer, one world (tests);
// - dist-inject/page-agent-isolated.js: the page layer alone, for an isolated
//   world (the benchmark's page driver, bench/isolated-page-agent.ts);
// - dist-inject/listener-marks.js: the main-world marks alone.
import { build } from 'esbuild';

const root = new URL('../', import.meta.url).pathname;
const bundles = {
  'page-agent.js': 'src/content/inject-entry.ts',
  'page-agent-isolated.js': 'src/content/inject-agent.ts',
  'listener-marks.js': 'src/content/main-world/listener-marks.iife.ts',
};
for (const [out, entry] of Object.entries(bundles)) {
  const result = await build({
    entryPoints: [`${root}${entry}`],
    outfile: `${root}dist-inject/${out}`,
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
  console.log(`build-page-agent: dist-inject/${out} (${(bytes / 1024).toFixed(1)} KB)`);
}
