/**
 * The CI smoke of the real-apps suite (`npx tsx --import ./scripts/node-glob-loader.mjs bench/suites/real-apps/smoke.ts`,
 * after `npm run build`): one template per application (the `smoke` profile:
 * a Fossil ticket's status, WordPress's tagline), taught once and then alone,
 * through the extension's agent loop in headless Chromium. Checks: each taught
 * attempt succeeds with no unteachable step, and the attempt alone after it
 * succeeds. Ends with `N passed, N failed`. Needs Debian's `chromium`,
 * `fossil`, `wordpress`, `mariadb-server`, `php-cli` and `php-mysql`
 * (REAL_APPS=fossil runs Fossil's alone); a missing application fails with one line.
 */
import { BENCH_CONFIGURATIONS } from '../../../src/core/learning/registry/registry-factories.ts';
import { runBench } from '../../bench-runner.ts';
import { isSuiteStartError } from '../../suite.ts';
import suite from './index.ts';

async function main(): Promise<number> {
  const started = Date.now();
  const result = await runBench({
    suite, learners: [BENCH_CONFIGURATIONS.showcase], attempts: 2, policy: 'offline', noise: 0, seed: 0, memory: 'fresh',
    profile: 'smoke', taskFilter: '', progress: false, teach: 1,
  });
  const checks: [string, boolean][] = [];
  for (const r of result.records) {
    const label = `${r.taskId} attempt ${r.attempt} ${r.taught ? 'taught' : 'alone'}`;
    checks.push([`${label}: ${r.outcome}${r.error ? ` (${r.error})` : ''} in ${r.steps} steps`, r.outcome === 'success']);
    if (r.taught) checks.push([`${label}: unteachable steps ${r.teaching?.unteachable.length ?? 0}`, (r.teaching?.unteachable.length ?? 0) === 0]);
  }
  const expected = 2 * (suite.profiles?.['smoke']?.length ?? 0);
  if (result.records.length !== expected) checks.push([`expected ${expected} attempts, got ${result.records.length}`, false]);
  for (const [text, ok] of checks) console.log(`${ok ? '✓' : '✗'} ${text}`);
  const passed = checks.filter(([, ok]) => ok).length;
  console.log(`real-apps smoke: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  console.log(`${passed} passed, ${checks.length - passed} failed`);
  return passed === checks.length ? 0 : 1;
}

main().then(
  (code) => { process.exitCode = code; },
  (err: unknown) => {
    console.error(isSuiteStartError(err) ? `Suite could not start: ${err.message}` : err);
    console.log('0 passed, 1 failed');
    process.exitCode = 1;
  },
);
