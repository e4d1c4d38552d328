/**
 * Real applications from Debian in the benchmark (issue 33): Fossil, seeded
 * at start (idempotently: the prepared repository is reused while its seed
 * matches), restored from its snapshot before every attempt, and served on
 * 127.0.0.1 with the browser logged in as the admin. Development and test
 * templates are printed apart (fossil-tasks.ts names the test set).
 *
 * The repository lives in bench/out/real-apps/fossil (REAL_APPS_DIR overrides).
 * An application that cannot be installed or started throws
 * AppUnavailableError: the benchmark prints one line naming it and fails.
 */
import { resolve } from 'node:path';
import type { Suite } from '../../suite.ts';
import { prepareRepository, serveRepository, type FossilRepo, type FossilServer } from './fossil/fossil-app.ts';
import { fossilTasks } from './fossil/fossil-tasks.ts';

export const REAL_APPS_DIR = process.env['REAL_APPS_DIR'] ?? resolve(import.meta.dirname, '../../out/real-apps');

let fossil: { repo: FossilRepo; server: FossilServer } | null = null;

const suite: Suite = {
  name: 'real-apps',
  async start() {
    if (!fossil) {
      const repo = await prepareRepository(resolve(REAL_APPS_DIR, 'fossil'));
      fossil = { repo, server: await serveRepository(repo) };
    }
    return { baseUrl: fossil.server.baseUrl };
  },
  async stop() {
    await fossil?.server.close();
    fossil = null;
  },
  tasks: () => {
    if (!fossil) throw new Error('real-apps: start() must run before tasks()');
    return fossilTasks(fossil.repo, fossil.server.baseUrl);
  },
  profiles: {
    // The CI smoke: one development template, taught once then alone.
    smoke: ['fossil.ticket-status.crash-when-saving-an-empty-note'],
    // One instance of every template (8 tasks), for the carry and no-teacher runs on a small budget.
    quick: [
      'fossil.ticket-status.crash-when-saving-an-empty-note', 'fossil.ticket-severity.dark-theme-for-the-editor',
      'fossil.ticket-new.import-notes-from-markdown-files', 'fossil.wiki-create.release-checklist', 'fossil.wiki-search.tombstone',
      'fossil.ticket-comment.build-fails-with-newer-zlib', 'fossil.ticket-close.dark-theme-for-the-editor', 'fossil.wiki-append.coding-style',
    ],
  },
};

export default suite;
