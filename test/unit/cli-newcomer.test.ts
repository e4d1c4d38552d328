/**
 * Issue 31, the newcomer path: the demo, the benchmark and the e2e harness
 * find a Chromium or Chrome (CHROMIUM_PATH, then the usual paths); without
 * one, `npm start` says in one line how to get one (exit 1, no stack trace);
 * every command under bench/ and scripts/ that takes flags answers --help.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChromiumNotFoundError, findChromium, USUAL_CHROMIUM_PATHS } from '../support/find-chromium.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
/** As the npm scripts run tsx: with the loader that expands the registry's import.meta.glob. */
const GLOB = ['--import', join(ROOT, 'scripts/node-glob-loader.mjs')];
const HOW = 'install one (Debian/Ubuntu: sudo apt-get install chromium) or set CHROMIUM_PATH=/path/to/chrome.';

describe('finding Chromium', () => {
  it('CHROMIUM_PATH first, then the usual paths in order', () => {
    expect(findChromium({ CHROMIUM_PATH: '/opt/chrome' }, (p) => p === '/opt/chrome' || p === '/usr/bin/chromium')).toBe('/opt/chrome');
    expect(findChromium({}, (p) => p === '/usr/bin/chromium-browser' || p === '/usr/bin/google-chrome')).toBe('/usr/bin/chromium-browser');
    expect(findChromium({ CHROMIUM_PATH: '' }, (p) => p === '/usr/bin/google-chrome')).toBe('/usr/bin/google-chrome');
  });

  it('none: one line that says how to install one', () => {
    expect(() => findChromium({ CHROMIUM_PATH: '/nope' }, () => false)).toThrow(new ChromiumNotFoundError(`CHROMIUM_PATH=/nope does not exist: ${HOW}`));
    expect(() => findChromium({}, () => false)).toThrow(`No Chromium or Chrome found (CHROMIUM_PATH is not set; looked in ${USUAL_CHROMIUM_PATHS.join(', ')}): ${HOW}`);
  });

  it('npm start without a browser: that line alone, exit code 1', () => {
    const out = spawnSync(TSX, [...GLOB, join(ROOT, 'bench/demo.ts')], { encoding: 'utf8', env: { ...process.env, CHROMIUM_PATH: '/nonexistent/chrome' }, timeout: 60_000 });
    expect(out.status).toBe(1);
    expect(out.stderr.trim()).toBe(`CHROMIUM_PATH=/nonexistent/chrome does not exist: ${HOW}`);
    expect(out.stdout).toBe('');
  }, 60_000);
});

describe('--help', () => {
  it('every script under scripts/ that reads argv prints its usage and exits 0', () => {
    const scripts = readdirSync(join(ROOT, 'scripts')).filter((f) => /^(check-|new-learner)/.test(f));
    expect(scripts.length).toBeGreaterThanOrEqual(8);
    for (const script of scripts) {
      const out = spawnSync(process.execPath, [join(ROOT, 'scripts', script), '--help'], { encoding: 'utf8', timeout: 30_000 });
      expect({ script, status: out.status, usage: out.stdout.startsWith('usage: ') }).toEqual({ script, status: 0, usage: true });
    }
  }, 60_000);

  it('the bench commands list their flags; an unknown flag is one line and exit code 2', () => {
    const demo = spawnSync(TSX, [...GLOB, join(ROOT, 'bench/demo.ts'), '--help'], { encoding: 'utf8', timeout: 60_000 });
    expect(demo.status).toBe(0);
    expect(demo.stdout).toContain('\nFlags:\n  --template <value>              (default: shop.add-to-cart)\n');
    expect(demo.stdout).toContain('  --help, -h                      print this list');
    const bad = spawnSync(TSX, [...GLOB, join(ROOT, 'bench/demo.ts'), '--bogus'], { encoding: 'utf8', timeout: 60_000 });
    expect({ status: bad.status, stderr: bad.stderr.trim() }).toEqual({ status: 2, stderr: "Unknown option '--bogus'. Run with --help for the flags." });
    // One more, to keep the suite light (each spawn compiles its imports); trust-bench, meta-train,
    // observe-bench and team-bench answer --help the same way (bench/cli.ts).
    for (const cli of ['bench/run-bench.ts']) {
      const out = spawnSync(TSX, [...GLOB, join(ROOT, cli), '--help'], { encoding: 'utf8', timeout: 60_000 });
      expect({ cli, status: out.status, flags: out.stdout.includes('\nFlags:\n') }).toEqual({ cli, status: 0, flags: true });
    }
  }, 180_000);

  it('every bench command answers --help before it runs anything (issue 30: bench:memory and bench:providers ran, teacher-check threw)', () => {
    const scripts = Object.values((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
    const entries = [...new Set([...scripts.flatMap((s) => s.match(/bench\/[\w/-]+\.ts/g) ?? []), 'bench/teacher-check.ts'])].sort();
    expect(entries.length).toBeGreaterThanOrEqual(10);
    const without = entries.filter((f) => !/\b(parseCli|helpIfAsked)\(/.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(without).toEqual([]);
    // The one that would otherwise fill a database for minutes.
    const memory = spawnSync(TSX, [...GLOB, join(ROOT, 'bench/jitrl/memory-bench.ts'), '--help'], { encoding: 'utf8', timeout: 60_000 });
    expect({ status: memory.status, flags: memory.stdout.includes('\nFlags:\n  --help, -h') }).toEqual({ status: 0, flags: true });
  }, 90_000);
});
