import { defineConfig } from 'vitest/config';

// End-to-end tests: the built dist/ loaded into real headless Chromium.
// One file at a time: Chromium instances are heavy on a 2-core machine.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
