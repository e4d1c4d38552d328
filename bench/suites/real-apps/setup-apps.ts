/**
 * `npx tsx bench/suites/real-apps/setup-apps.ts [--serve]`: installs nothing
 * itself (Debian's `fossil` package must be there: `apt-get install -y
 * fossil`), then prepares the seeded Fossil repository and its snapshot in
 * REAL_APPS_DIR (bench/out/real-apps by default). Idempotent: a repository
 * whose seed and fossil version match is reused. With --serve it also serves
 * the seeded state on 127.0.0.1 until interrupted (for a look by hand).
 * Fails with one line naming what failed.
 */
import { resolve } from 'node:path';
import { prepareRepository, serveRepository } from './fossil/fossil-app.ts';
import { REAL_APPS_DIR } from './index.ts';

async function main(): Promise<void> {
  const repo = await prepareRepository(resolve(REAL_APPS_DIR, 'fossil'));
  console.log(`fossil: seeded repository ${repo.seed}, live copy ${repo.live}`);
  if (!process.argv.includes('--serve')) return;
  const server = await serveRepository(repo);
  console.log(`fossil: serving on ${server.baseUrl} (logged in as admin from loopback); Ctrl+C to stop`);
  process.once('SIGINT', () => void server.close().then(() => process.exit(0)));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error && err.name === 'AppUnavailableError' ? `real-apps setup failed: ${err.message}` : err);
  process.exitCode = 1;
});
