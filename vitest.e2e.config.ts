import { defineConfig } from 'vitest/config';

// End-to-end tests: the built dist/ loaded into real headless Chromium.
// Two files at a time, one per core: most of an e2e test waits on the page
// (settle waits, navigations), so two Chromiums share the 2-core machine well
// (762 s → 521 s, all green on a quiet machine). Every file owns its browser,
// profile directory and loopback ports.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: true,
    maxWorkers: 2,
  },
});
