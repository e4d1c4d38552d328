import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const script = join(import.meta.dirname, '../../scripts/check-learner-ids.mjs');
const roots: string[] = [];
afterEach(() => { for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true }); });

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'learner-ids-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}
const lint = (root: string) => spawnSync(process.execPath, [script, root], { encoding: 'utf8' });

const LEARNER = {
  'src/core/learning/ranker/definition.ts': "export const rankerDefinition = { id: 'ranker' };\n",
  'src/core/learning/registry.ts': "import { rankerDefinition } from './ranker/definition.ts';\n",
  'src/ui/app/ranker-evidence.tsx': "import { x } from '../../core/learning/ranker/evidence.ts';\n",
  'test/unit/ranker.test.ts': "it('ranker', () => {});\n",
};

describe('scripts/check-learner-ids.mjs', () => {
  it('passes a learner named only in its folder, the registry, its view and tests', () => {
    const out = lint(tree(LEARNER));
    expect(out.stderr).toBe('');
    expect(out.stdout).toContain('check-learner-ids ok (1 learners: ranker)');
    expect(out.status).toBe(0);
  });

  it('fails when the agent or the benchmark names a learner, naming the place', () => {
    const out = lint(tree({
      ...LEARNER,
      'src/core/agent/controller.ts': "const a = 1;\nif (settings.learners['ranker']) run();\n",
      'bench/run.ts': "import { RankerLearner } from '../src/core/learning/ranker/ranker-learner.ts';\n",
    }));
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('src/core/agent/controller.ts:2 names learner "ranker"');
    expect(out.stderr).toContain('bench/run.ts:1 names learner "ranker"');
  });
});
