import { defineConfig } from 'vitest/config';
import preact from '@preact/preset-vite';

// Unit and component tests. Kept apart from vite.config.ts so the crx plugin
// never loads under vitest.
export default defineConfig({
  plugins: [preact()],
  test: {
    include: ['test/unit/**/*.test.{ts,tsx}', 'src/**/*.test.{ts,tsx}'],
    environment: 'node',
    setupFiles: ['test/support/setup-unit.ts'],
    testTimeout: 20_000,
    // Worker threads, not forked processes: the same isolation per file, without a process per file
    // (227 s → 158 s for the suite on the 2-core machine). Two at a time: vitest's default is one
    // worker fewer than the cores, which on a 2-core machine ran the unit files one by one.
    pool: 'threads',
    maxWorkers: 2,
  },
});
