/**
 * `npx tsx bench/suites/real-apps/setup-apps.ts [--serve]`: installs nothing
 * itself (Debian's packages must be there: `apt-get install -y fossil
 * wordpress mariadb-server php-cli php-mysql`), then prepares each
 * application's seeded state and snapshot in REAL_APPS_DIR (bench/out/real-apps
 * by default): Fossil's repository, WordPress's private MariaDB and database.
 * REAL_APPS=fossil (or wordpress) prepares one. Idempotent: a state whose
 * seed and versions match is reused. With --serve it also serves the seeded
 * state on 127.0.0.1 until interrupted (for a look by hand; the browser on
 * loopback is the admin). Fails with one line naming what failed.
 */
import { resolve } from 'node:path';
import { prepareRepository, serveRepository } from './fossil/fossil-app.ts';
import { appsFromEnv, REAL_APPS_DIR } from './index.ts';
import { prepareSite, serveSite } from './wordpress/wp-app.ts';

async function main(): Promise<void> {
  const serve = process.argv.includes('--serve');
  const closers: (() => Promise<void>)[] = [];
  for (const app of appsFromEnv()) {
    if (app === 'fossil') {
      const repo = await prepareRepository(resolve(REAL_APPS_DIR, 'fossil'));
      console.log(`fossil: seeded repository ${repo.seed}, live copy ${repo.live}`);
      if (!serve) continue;
      const server = await serveRepository(repo);
      closers.push(() => server.close());
      console.log(`fossil: serving on ${server.baseUrl} (logged in as admin from loopback)`);
    } else {
      const site = await prepareSite(resolve(REAL_APPS_DIR, 'wordpress'));
      closers.push(() => site.close());
      console.log(`wordpress: seeded database, snapshot ${site.snapshot}, MariaDB socket ${site.socket}`);
      if (!serve) continue;
      const server = await serveSite(site);
      closers.unshift(() => server.close());
      console.log(`wordpress: serving on ${server.baseUrl}/wp-admin/ (logged in as admin from loopback)`);
    }
  }
  const closeAll = async (): Promise<void> => { for (const close of closers) await close(); };
  if (!serve) return closeAll();
  console.log('Ctrl+C to stop');
  process.once('SIGINT', () => void closeAll().then(() => process.exit(0)));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error && err.name === 'AppUnavailableError' ? `real-apps setup failed: ${err.message}` : err);
  process.exitCode = 1;
});
