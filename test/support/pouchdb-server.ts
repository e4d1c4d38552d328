/**
 * A real CouchDB-compatible server for tests and the benchmark: the npm
 * `pouchdb-server`, in memory, on a random loopback port, with one admin
 * (so wrong credentials are refused as CouchDB refuses them). Started by the
 * test, stopped after it; its config and log live in a temporary folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { freePort } from '../../bench/free-port.ts';

export interface TeamServer {
  url: string;
  port: number;
  admin: { username: string; password: string };
  /** CPU seconds the server process used so far (Linux /proc; null elsewhere). */
  cpuSeconds(): number | null;
  /** Creates a database (PUT /db). */
  createDatabase(name: string): Promise<void>;
  /** Stops the server (SIGKILL when `hard`: a crash, not a shutdown). */
  stop(options?: { hard?: boolean }): Promise<void>;
}


const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;

/**
 * `dataDir`: keep the databases on disk there (LevelDB), so a killed server
 * restarts with its data (the benchmark's resumption run); in memory otherwise.
 */
export async function startTeamServer(options: { port?: number; timeoutMs?: number; dataDir?: string } = {}): Promise<TeamServer> {
  const dir = mkdtempSync(join(tmpdir(), 'apprentice-couch-'));
  const admin = { username: 'admin', password: 'team-test-password' };
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ admins: { [admin.username]: admin.password }, log: { file: join(dir, 'log.txt'), level: 'none' } }));
  const port = options.port ?? (await freePort());
  const bin = createRequire(import.meta.url).resolve('pouchdb-server/bin/pouchdb-server');
  const child: ChildProcess = spawn(process.execPath, [bin, ...(options.dataDir ? ['--dir', options.dataDir] : ['--in-memory']), '--port', String(port), '--host', '127.0.0.1', '--no-stdout-logs', '--config', join(dir, 'config.json')], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  let stopping = false;
  child.once('exit', (code, signal) => {
    if (!stopping) process.stderr.write(`pouchdb-server on port ${port} exited unexpectedly (${code ?? signal}): ${stderr.slice(-2000)}\n`);
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pouchdb-server exited (${child.exitCode}): ${stderr.slice(0, 500)}`);
    try {
      const res = await fetch(`${url}/`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`pouchdb-server did not start within ${options.timeoutMs ?? 30_000} ms: ${stderr.slice(0, 500)}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url, port, admin,
    cpuSeconds() {
      try {
        const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        return (Number(fields[11]) + Number(fields[12])) / 100;
      } catch {
        return null;
      }
    },
    async createDatabase(name) {
      const res = await fetch(`${url}/${encodeURIComponent(name)}`, { method: 'PUT', headers: { authorization: basic(admin.username, admin.password) } });
      if (!res.ok && res.status !== 412) throw new Error(`could not create ${name}: ${res.status} ${await res.text()}`);
    },
    async stop({ hard = false } = {}) {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill(hard ? 'SIGKILL' : 'SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
