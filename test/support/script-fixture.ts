/**
 * Runs one of the project's check scripts (scripts/check-*.mjs) on a scratch
 * tree of files written for the test; the trees are removed after each test.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';

export function scriptOnScratchTrees(scriptName: string) {
  const script = join(import.meta.dirname, '../../scripts', scriptName);
  const roots: string[] = [];
  afterEach(() => { for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true }); });
  const tree = (files: Record<string, string>): string => {
    const root = mkdtempSync(join(tmpdir(), `${scriptName.replace(/\.mjs$/, '')}-`));
    roots.push(root);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return root;
  };
  const lint = (root: string) => spawnSync(process.execPath, [script, root], { encoding: 'utf8' });
  return { tree, lint };
}
