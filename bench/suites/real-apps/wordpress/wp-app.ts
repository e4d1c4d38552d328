/**
 * WordPress (Debian 12's `wordpress` package) as a benchmark application:
 * a private MariaDB (its own data directory and socket, no TCP port, run as
 * the current user), a seeded database prepared once (idempotent: reused
 * while the seed's fingerprint matches) and dumped as the snapshot that is
 * restored before every attempt, and `php -S` on 127.0.0.1 with a router
 * (php/router.php) and a must-use plugin that makes a loopback browser the
 * administrator. Rewards read the database with read-only SQL.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { AppUnavailableError } from '../app-error.ts';
import { seedFingerprint, seedJson } from './wp-seed.ts';
import { freePort } from '../../../free-port.ts';

const run = promisify(execFile);
const WP_ROOT = '/usr/share/wordpress';
const PHP_DIR = resolve(import.meta.dirname, 'php');
/** Debian's wp-config.php requires /etc/wordpress/config-<name>.php; ours holds nothing (php/bench-env.php has the settings). */
const CONFIG_STUB = '/etc/wordpress/config-apprentice-bench.php';
const DB = 'wp_bench';
const APT = 'apt-get install -y wordpress mariadb-server php-cli php-mysql';

export interface WpSite {
  dir: string;
  socket: string;
  /** The seeded database as SQL: restored before each attempt. */
  snapshot: string;
  close(): Promise<void>;
}

const fail = (detail: string): never => { throw new AppUnavailableError('wordpress', detail); };
const firstLine = (s: unknown): string => String(s ?? '').trim().split('\n')[0] ?? '';

async function cli(bin: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  try {
    const { stdout } = await run(bin, args, { env: { ...process.env, ...env }, maxBuffer: 64 << 20 });
    return stdout;
  } catch (err) {
    const e = err as { code?: unknown; stderr?: unknown; message?: unknown };
    if (e.code === 'ENOENT') return fail(`${bin} was not found; install Debian's packages with: ${APT}`);
    return fail(`\`${bin} ${args.slice(0, 2).join(' ')}\` failed: ${firstLine(e.stderr) || firstLine(e.message)}`);
  }
}

const mysqlArgs = (socket: string): string[] => ['--no-defaults', `--socket=${socket}`, '-uroot'];

/** Rows of a query as tab-separated fields (MariaDB's batch output). Any failure throws. */
export async function query(site: Pick<WpSite, 'socket'>, sql: string): Promise<string[][]> {
  const out = await cli('mariadb', [...mysqlArgs(site.socket), '-N', '-B', DB, '-e', sql]);
  return out.split('\n').filter((line) => line !== '').map((line) => line.split('\t').map((f) => (f === 'NULL' ? '' : f.replace(/\\n/g, '\n').replace(/\\t/g, '\t').replace(/\\\\/g, '\\'))));
}

async function dbAnswers(socket: string): Promise<boolean> {
  return run('mariadb', [...mysqlArgs(socket), '-e', 'SELECT 1']).then(() => true, () => false);
}

/** MariaDB refuses to run as root unless told to; as any other user it runs as that user. */
const asRoot = process.getuid?.() === 0 ? ['--user=root'] : [];

async function startDatabase(dir: string): Promise<{ socket: string; child: ChildProcess | null }> {
  const datadir = join(dir, 'db');
  const socket = join(dir, 'mysqld.sock');
  if (await dbAnswers(socket)) return { socket, child: null }; // one left running by an interrupted run
  if (!(await access(join(datadir, 'mysql')).then(() => true, () => false))) {
    await cli('mariadb-install-db', ['--no-defaults', `--datadir=${datadir}`, ...asRoot,
      '--auth-root-authentication-method=normal', '--skip-test-db']);
  }
  const child = spawn('mariadbd', ['--no-defaults', `--datadir=${datadir}`, `--socket=${socket}`, '--skip-networking',
    `--pid-file=${join(dir, 'mysqld.pid')}`, `--log-error=${join(dir, 'mysqld.err')}`, '--skip-log-bin',
    '--innodb-buffer-pool-size=32M', '--innodb-flush-log-at-trx-commit=0', ...asRoot],
  { stdio: 'ignore' });
  process.once('exit', () => child.kill());
  const spawnError = new Promise<string>((r) => child.once('error', (e) => r(e.message)));
  const exited = new Promise<string>((r) => child.once('exit', (code) => r(`exited with code ${code}`)));
  const deadline = Date.now() + 30_000;
  while (!(await dbAnswers(socket))) {
    const early = await Promise.race([spawnError, exited, new Promise<null>((r) => setTimeout(() => r(null), 250))]);
    if (early !== null) fail(`mariadbd did not start (${early}; see ${join(dir, 'mysqld.err')}); install it with: ${APT}`);
    if (Date.now() > deadline) { child.kill(); fail(`mariadbd did not answer on ${socket} within 30 s`); }
  }
  return { socket, child };
}

async function versions(): Promise<string> {
  const wp = /\$wp_version = '([^']+)'/.exec(await readFile(join(WP_ROOT, 'wp-includes/version.php'), 'utf8').catch(() => fail(`${WP_ROOT} is missing; install it with: ${APT}`)))?.[1];
  const php = (await cli('php', ['-r', 'echo PHP_VERSION;'])).trim();
  return `wordpress ${wp}, php ${php}`;
}

async function ensureConfigStub(): Promise<void> {
  if (await access(CONFIG_STUB).then(() => true, () => false)) return;
  await writeFile(CONFIG_STUB, '<?php\n// Apprentice benchmark: the settings come from bench/suites/real-apps/wordpress/php/bench-env.php.\n')
    .catch((err: unknown) => fail(`cannot write ${CONFIG_STUB} (${err instanceof Error ? err.message : String(err)}); run the setup once as root`));
}

async function seedDatabase(dir: string, socket: string, snapshot: string): Promise<void> {
  await cli('mariadb', [...mysqlArgs(socket), '-e', `DROP DATABASE IF EXISTS ${DB}; CREATE DATABASE ${DB} CHARACTER SET utf8mb4`]);
  const seedFile = join(dir, 'seed.json');
  await writeFile(seedFile, seedJson());
  await cli('php', [join(PHP_DIR, 'wp-seed.php'), seedFile], { APPRENTICE_WP_SOCKET: socket });
  await writeFile(snapshot, await cli('mariadb-dump', [...mysqlArgs(socket), '--skip-dump-date', '--skip-comments', DB]));
}

/** Starts the database, seeds it unless the same seed is there (idempotent), and restores the snapshot. */
export async function prepareSite(dir: string): Promise<WpSite> {
  await mkdir(dir, { recursive: true });
  const fingerprint = seedFingerprint(await versions());
  await ensureConfigStub();
  const { socket, child } = await startDatabase(dir);
  const site: WpSite = {
    dir, socket, snapshot: join(dir, 'seed.sql'),
    async close() {
      if (child && child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill();
        await exited;
      }
    },
  };
  const markerFile = join(dir, 'seed.fingerprint');
  const snapshotThere = await access(site.snapshot).then(() => true, () => false);
  if (!snapshotThere || (await readFile(markerFile, 'utf8').catch(() => '')) !== fingerprint) {
    await seedDatabase(dir, socket, site.snapshot);
    await writeFile(markerFile, fingerprint);
  }
  await restoreSite(site);
  return site;
}

/** Puts the seeded database back: the snapshot's SQL drops and re-creates every table. */
export async function restoreSite(site: Pick<WpSite, 'socket' | 'snapshot'>): Promise<void> {
  const child = spawn('mariadb', [...mysqlArgs(site.socket), DB], { stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => { stderr += d.toString(); });
  createReadStream(site.snapshot).pipe(child.stdin!);
  const code = await new Promise<number | null>((r, reject) => { child.once('error', reject); child.once('exit', r); });
  if (code !== 0) fail(`restoring the snapshot failed: ${firstLine(stderr)}`);
}


export interface WpServer { baseUrl: string; close(): Promise<void> }

/** `php -S` on 127.0.0.1 (four workers); resolves once the dashboard answers logged in, else names why not. */
export async function serveSite(site: WpSite, timeoutMs = 20_000): Promise<WpServer> {
  const port = await freePort();
  const child = spawn('php', ['-S', `127.0.0.1:${port}`, '-t', WP_ROOT, join(PHP_DIR, 'router.php')], {
    env: { ...process.env, APPRENTICE_WP_SOCKET: site.socket, PHP_CLI_SERVER_WORKERS: '4' }, stdio: ['ignore', 'ignore', 'pipe'],
    // Its own process group: the workers outlive a TERM to the master, so close() ends the group.
    detached: true,
  });
  const stop = (): void => { try { process.kill(-child.pid!, 'SIGTERM'); } catch { child.kill(); } };
  process.once('exit', stop);
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => { stderr = (stderr + d.toString()).slice(-4000); });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const spawnError = new Promise<Error>((r) => child.once('error', (e) => r(e)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await fetch(`${baseUrl}/wp-admin/`, { redirect: 'manual' }).then((r) => r.status, () => 0);
    if (status === 200) break;
    const early = await Promise.race([exited.then((c) => `exited with code ${c}`), spawnError.then((e) => e.message), new Promise<null>((r) => setTimeout(() => r(null), 200))]);
    if (early !== null || Date.now() > deadline || (status !== 0 && status !== 200)) {
      stop();
      fail(`php -S did not serve the logged-in dashboard on ${baseUrl}: ${early ?? (status ? `HTTP ${status}` : 'no answer in time')}${stderr ? ` (${firstLine(stderr)})` : ''}`);
    }
  }
  return {
    baseUrl,
    async close() {
      if (child.exitCode === null) {
        stop();
        await exited;
      }
    },
  };
}
