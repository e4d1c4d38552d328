/**
 * Real applications from Debian in the benchmark (issue 33): Fossil and
 * WordPress, each seeded at start (idempotently: the prepared state is reused
 * while its seed matches), restored from its snapshot before every attempt,
 * and served on 127.0.0.1 with the browser logged in as the admin.
 * Development and test templates are printed apart (fossil-tasks.ts and
 * wp-tasks.ts name the test sets).
 *
 * State lives in bench/out/real-apps/<app> (REAL_APPS_DIR overrides).
 * REAL_APPS=fossil (or wordpress) starts one application only; both by default.
 * An application that cannot be installed or started throws
 * AppUnavailableError: the benchmark prints one line naming it and fails.
 */
import { resolve } from 'node:path';
import type { BenchTask, Suite } from '../../suite.ts';
import { prepareRepository, serveRepository } from './fossil/fossil-app.ts';
import { fossilTasks } from './fossil/fossil-tasks.ts';
import { prepareSite, serveSite } from './wordpress/wp-app.ts';
import { wordpressTasks } from './wordpress/wp-tasks.ts';

export const REAL_APPS_DIR = process.env['REAL_APPS_DIR'] ?? resolve(import.meta.dirname, '../../out/real-apps');

export type RealApp = 'fossil' | 'wordpress';
export const REAL_APPS: readonly RealApp[] = ['fossil', 'wordpress'];

interface Running { tasks: () => BenchTask[]; close(): Promise<void> }

async function startApp(app: RealApp): Promise<Running> {
  if (app === 'fossil') {
    const repo = await prepareRepository(resolve(REAL_APPS_DIR, 'fossil'));
    const server = await serveRepository(repo);
    return { tasks: () => fossilTasks(repo, server.baseUrl), close: () => server.close() };
  }
  const site = await prepareSite(resolve(REAL_APPS_DIR, 'wordpress'));
  const server = await serveSite(site).catch(async (err: unknown) => { await site.close(); throw err; });
  return { tasks: () => wordpressTasks(site, server.baseUrl), close: async () => { await server.close(); await site.close(); } };
}

/** Profiles per application: the CI smoke's template, and one instance of every template (quick). */
const PROFILES: Record<RealApp, { smoke: string[]; quick: string[] }> = {
  fossil: {
    smoke: ['fossil.ticket-status.crash-when-saving-an-empty-note'],
    quick: [
      'fossil.ticket-status.crash-when-saving-an-empty-note', 'fossil.ticket-severity.dark-theme-for-the-editor',
      'fossil.ticket-new.import-notes-from-markdown-files', 'fossil.wiki-create.release-checklist', 'fossil.wiki-search.tombstone',
      'fossil.ticket-comment.build-fails-with-newer-zlib', 'fossil.ticket-close.dark-theme-for-the-editor', 'fossil.wiki-append.coding-style',
    ],
  },
  wordpress: {
    smoke: ['wp.tagline.recipes-trips-and-gardens'],
    quick: [
      'wp.post-trash.our-spring-meetup', 'wp.post-category.welcome-to-the-new-journal', 'wp.draft-post.packing-list-for-the-coast',
      'wp.category-new.events', 'wp.comment-approve.omar-haddad', 'wp.user-role.lee', 'wp.tagline.recipes-trips-and-gardens',
      'wp.post-tag.pancakes-for-a-crowd', 'wp.tag-rename.quick', 'wp.comment-spam.cheap-pills-online',
    ],
  },
};

/** The suite over the given applications, started in order. */
export function realAppsSuite(apps: readonly RealApp[]): Suite {
  let running: Running[] | null = null;
  return {
    name: 'real-apps',
    async start() {
      if (!running) {
        running = [];
        try {
          for (const app of apps) running.push(await startApp(app));
        } catch (err) {
          for (const r of running) await r.close();
          running = null;
          throw err;
        }
      }
      return { baseUrl: 'http://127.0.0.1' };
    },
    async stop() {
      for (const r of running ?? []) await r.close();
      running = null;
    },
    tasks: () => {
      if (!running) throw new Error('real-apps: start() must run before tasks()');
      return running.flatMap((r) => r.tasks());
    },
    profiles: {
      smoke: apps.flatMap((a) => PROFILES[a].smoke),
      quick: apps.flatMap((a) => PROFILES[a].quick),
    },
  };
}

/** REAL_APPS (comma-separated), else every application. */
export function appsFromEnv(value = process.env['REAL_APPS']): RealApp[] {
  if (value === undefined || value.trim() === '') return [...REAL_APPS];
  const apps = value.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = apps.filter((a) => !REAL_APPS.includes(a as RealApp));
  if (unknown.length > 0) throw new Error(`REAL_APPS names ${unknown.join(', ')}; known: ${REAL_APPS.join(', ')}`);
  return apps as RealApp[];
}

const suite: Suite = realAppsSuite(appsFromEnv());
export default suite;
