import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scriptOnScratchTrees } from '../support/script-fixture.ts';

const { tree, lint } = scriptOnScratchTrees('check-learner-ids.mjs');

const LEARNER = {
  'src/learners/ranker/definition.ts': "export const definition = { id: 'ranker' };\n",
  'src/learners/ranker/ui/ranker-evidence.tsx': "import { x } from '../core/evidence.ts';\n",
  'src/learners/ranker/test/ranker.test.ts': "it('ranker', () => {});\n",
  'src/core/learning/registry/registry.ts': "export const all = import.meta.glob('../../../learners/*/definition.ts', { eager: true });\n",
  'test/unit/ranker.test.ts': "it('ranker', () => {});\n",
};

describe('scripts/check-learner-ids.mjs', () => {
  it('passes a learner named only in its folder (its views and tests included) and tests under test/', () => {
    const out = lint(tree(LEARNER));
    expect(out.stderr).toBe('');
    expect(out.stdout).toContain('check-learner-ids ok (1 learners: ranker)');
    expect(out.status).toBe(0);
  });

  it('fails when the agent or the benchmark names a learner, naming the place', () => {
    const out = lint(tree({
      ...LEARNER,
      'src/core/agent/controller.ts': "const a = 1;\nif (settings.learners['ranker']) run();\n",
      'bench/run.ts': "import { RankerLearner } from '../src/learners/ranker/core/ranker-learner.ts';\n",
      'src/ui/app/learner-views.ts': "const views = { ranker: 1 };\n",
    }));
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('src/core/agent/controller.ts:2 names learner "ranker"');
    expect(out.stderr).toContain('bench/run.ts:1 names learner "ranker"');
    expect(out.stderr).toContain('src/ui/app/learner-views.ts:1 names learner "ranker"');
  });

  it('lets a learner\'s own benchmarks (bench/<id>/) name it, and no other bench folder', () => {
    const own = lint(tree({ ...LEARNER, 'bench/ranker/tune.ts': "import { RankerLearner } from '../../src/learners/ranker/core/ranker-learner.ts';\n" }));
    expect(own.status).toBe(0);
    const other = lint(tree({ ...LEARNER, 'bench/tools/tune.ts': "const id = 'ranker';\n" }));
    expect(other.status).toBe(1);
    expect(other.stderr).toContain('bench/tools/tune.ts:1 names learner "ranker"');
  });

  it('has no exceptions: a bench/trust file (the last hand-named places) naming a learner fails', () => {
    const out = lint(tree({ ...LEARNER, 'bench/trust/hijack-run.ts': "learners: { ranker: { enabled: false } },\n" }));
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('bench/trust/hijack-run.ts:1 names learner "ranker"');
    const script = readFileSync(new URL('../../scripts/check-learner-ids.mjs', import.meta.url), 'utf8');
    expect(script).not.toMatch(/KNOWN/);
  });

  it('catches a learner by its label or any spelling of its id (case, hyphens, a type named after it), not by longer words', () => {
    const labelled = { ...LEARNER, 'src/learners/ranker/definition.ts': "export const definition = { id: 'ranker', label: 'Rank Net' };\n" };
    expect(lint(tree(labelled)).status).toBe(0);
    const planted = {
      'src/core/policy/a.ts': '// scores candidates, as Rank Net does\n',
      'src/core/agent/b.ts': 'const n = 1;\n/** Ra-Nker style bars. */\n',
      'src/ui/app/c.tsx': "import type { RankerSettings } from './x.ts';\n",
      'src/core/page/d.ts': '// (RANKER, §4.2)\n',
      'src/ui/styles.css': '/* Ranker panel */\n',
    };
    const out = lint(tree({ ...labelled, ...planted }));
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('check-learner-ids: 5 problem(s)');
    for (const [file, line] of [['src/core/policy/a.ts', 1], ['src/core/agent/b.ts', 2], ['src/ui/app/c.tsx', 1], ['src/core/page/d.ts', 1], ['src/ui/styles.css', 1]] as const) {
      expect(out.stderr).toContain(`${file}:${line} names learner "ranker"`);
    }
    // Other words that start with the id's letters are not the learner.
    const words = lint(tree({ ...labelled, 'src/core/e.ts': '// rankers rank by ranking; RANKERS; Rank Netting\n' }));
    expect(words.stderr).toBe('');
    expect(words.status).toBe(0);
  });
});
