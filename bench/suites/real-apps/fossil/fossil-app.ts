/**
 * Fossil (Debian's `fossil` package) as a benchmark application: a seeded
 * repository prepared once (idempotent: reused while the seed's fingerprint
 * matches), a snapshot of it restored before every attempt, a `fossil server
 * --localauth` on 127.0.0.1 (a browser on loopback is logged in as the admin),
 * and read-only SQL on the live repository for the rewards.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as z from 'zod';
import { AppUnavailableError } from '../app-error.ts';
import { PROJECT_NAME, seedFingerprint, TICKETS, WIKI_PAGES } from './fossil-seed.ts';
import { freePort } from '../../../free-port.ts';

const run = promisify(execFile);
export const FOSSIL_BIN = process.env['FOSSIL_BIN'] ?? 'fossil';
const ADMIN = 'admin';

export interface FossilRepo {
  dir: string;
  /** The seeded state, never served. */
  seed: string;
  /** The repository the server serves; the seed is copied over it before each attempt. */
  live: string;
}

/** Runs the fossil CLI with a private global-config home; a failure names the command. */
export async function fossilCli(dir: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await run(FOSSIL_BIN, args, { env: { ...process.env, FOSSIL_HOME: dir, USER: ADMIN }, maxBuffer: 16 << 20 });
    return stdout;
  } catch (err) {
    const e = err as { code?: unknown; stderr?: unknown; message?: unknown };
    if (e.code === 'ENOENT') throw new AppUnavailableError('fossil', `the fossil binary was not found (${FOSSIL_BIN}); install it with: apt-get install -y fossil`);
    throw new AppUnavailableError('fossil', `\`fossil ${args.slice(0, 2).join(' ')}\` failed: ${String(e.stderr || e.message).trim().split('\n')[0]}`);
  }
}

export async function fossilVersion(dir: string): Promise<string> {
  return (await fossilCli(dir, ['version'])).trim();
}

async function seedRepository(dir: string, file: string): Promise<void> {
  await rm(file, { force: true });
  await fossilCli(dir, ['init', file, '--admin-user', ADMIN]);
  await fossilCli(dir, ['user', 'default', ADMIN, '-R', file]);
  const config = [['project-name', PROJECT_NAME], ['search-wiki', '1'], ['search-tkt', '1']];
  const values = config.map(([k, v]) => `('${k}','${v}',now())`).join(',');
  await fossilCli(dir, ['sql', '-R', file, `INSERT OR REPLACE INTO config(name,value,mtime) VALUES ${values};`]);
  const textFile = join(dir, 'page.txt');
  for (const page of WIKI_PAGES) {
    await writeFile(textFile, page.text);
    await fossilCli(dir, ['wiki', 'create', page.name, textFile, '-R', file, '--mimetype', 'text/x-markdown']);
  }
  for (const t of TICKETS) {
    await fossilCli(dir, ['ticket', 'add', 'title', t.title, 'type', t.type, 'status', t.status, 'severity', t.severity,
      'priority', t.priority, 'resolution', t.status === 'Closed' ? 'Fixed' : 'Open', 'comment', t.comment, '-R', file]);
  }
  await rm(textFile, { force: true });
}

/** Creates the seeded repository unless one with the same seed and fossil version is there. Idempotent. */
export async function prepareRepository(dir: string): Promise<FossilRepo> {
  await mkdir(dir, { recursive: true });
  const repo: FossilRepo = { dir, seed: join(dir, 'seed.fossil'), live: join(dir, 'live.fossil') };
  const fingerprint = seedFingerprint(await fossilVersion(dir));
  const markerFile = join(dir, 'seed.fingerprint');
  const marker = await readFile(markerFile, 'utf8').catch(() => '');
  if (marker !== fingerprint) {
    const building = join(dir, 'building.fossil');
    await seedRepository(dir, building);
    await rename(building, repo.seed);
    await writeFile(markerFile, fingerprint);
  }
  await restoreRepository(repo);
  return repo;
}

/** Puts the seeded state back: a copy of the snapshot replaces the live repository in one rename. */
export async function restoreRepository(repo: FossilRepo): Promise<void> {
  const next = `${repo.live}.next`;
  await copyFile(repo.seed, next);
  await rename(next, repo.live);
}

/** Read-only SQL on the live repository; rows checked against the schema. Any failure throws. */
export async function queryRows<T>(repo: FossilRepo, sql: string, row: z.ZodType<T>): Promise<T[]> {
  const out = (await fossilCli(repo.dir, ['sql', '--readonly', '-R', repo.live, '-json', sql])).trim();
  return z.array(row).parse(out === '' ? [] : JSON.parse(out));
}


export interface FossilServer { baseUrl: string; close(): Promise<void> }

/** `fossil server --localauth` on 127.0.0.1; resolves once it answers, else names why it did not. */
export async function serveRepository(repo: FossilRepo, timeoutMs = 10_000): Promise<FossilServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(FOSSIL_BIN, ['server', '--localauth', '--localhost', '--port', String(port), repo.live], {
    env: { ...process.env, FOSSIL_HOME: repo.dir, USER: ADMIN }, stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => { stderr += d.toString(); });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const spawnError = new Promise<Error>((r) => child.once('error', (e) => r(e)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await fetch(`${baseUrl}/home`).then((r) => r.ok, () => false);
    if (ok) break;
    const early = await Promise.race([exited.then((c) => `exited with code ${c}`), spawnError.then((e) => e.message), new Promise<null>((r) => setTimeout(() => r(null), 150))]);
    if (early !== null || Date.now() > deadline) {
      child.kill();
      throw new AppUnavailableError('fossil', `fossil server did not start on ${baseUrl}: ${early ?? 'no answer in time'}${stderr ? ` (${stderr.trim().split('\n')[0]})` : ''}`);
    }
  }
  return {
    baseUrl,
    async close() {
      if (child.exitCode === null) {
        child.kill();
        await exited;
      }
    },
  };
}
