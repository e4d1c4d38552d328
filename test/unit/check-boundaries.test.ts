import { describe, expect, it } from 'vitest';
import { scriptOnScratchTrees } from '../support/script-fixture.ts';

const { tree, lint } = scriptOnScratchTrees('check-boundaries.mjs');

describe('scripts/check-boundaries.mjs', () => {
  it('passes a tree whose UI imports only core and protocol', () => {
    const out = lint(tree({ 'src/ui/app/view.tsx': "import { x } from '../../core/settings.ts';\nimport { y } from '../../protocol/messages.ts';\n" }));
    expect(out.stdout).toContain('boundaries ok');
    expect(out.status).toBe(0);
  });

  it('fails on an import from ui/ into adapters/, naming the file and line', () => {
    const out = lint(tree({ 'src/ui/app/view.tsx': "import { x } from '../../core/settings.ts';\nimport { IdbMemoryStore } from '../../adapters/idb/idb-memory-store.ts';\n" }));
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('src/ui/app/view.tsx:2 imports ../../adapters/idb/idb-memory-store.ts');
  });

  it('fails on an import from content/ into adapters/ or background/', () => {
    const out = lint(tree({ 'src/content/act/click.ts': "import { a } from '../../adapters/chrome/tab-page-driver.ts';\nimport { b } from '../../background/index.ts';\n" }));
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('Architecture boundary violations (2)');
  });
  it('fails on an import cycle between two folders of src/core, naming both', () => {
    const out = lint(tree({
      'src/core/agent/episode.ts': "import type { Learner } from '../learning/learner.ts';\n",
      'src/core/learning/learner.ts': "import type { Episode } from '../agent/episode.ts';\n",
    }));
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('src/core/agent/episode.ts imports core/learning, which imports core/agent back');
  });

  it('passes one-way imports between folders of src/core', () => {
    const out = lint(tree({
      'src/core/agent/controller.ts': "import type { Learner } from '../learning/learner.ts';\n",
      'src/core/learning/learner.ts': "import type { Episode } from '../episode/episode.ts';\n",
      'src/core/episode/episode.ts': "export type Episode = { id: string };\n",
    }));
    expect(out.status).toBe(0);
  });
  it('fails when a learner folder imports another learner folder, and passes shared helpers', () => {
    const out = lint(tree({
      'src/core/learning/tfgrpo/rules.ts': "import { a } from '../cer/skill-variables.ts';\nimport { b } from '../shared/skill-variables.ts';\n",
      'src/core/learning/shared/skill-variables.ts': 'export const b = 1;\n',
      'src/core/learning/cer/skill-variables.ts': 'export const a = 1;\n',
    }));
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('Architecture boundary violations (1)');
    expect(out.stderr).toContain('src/core/learning/tfgrpo/rules.ts:1 imports ../cer/skill-variables.ts: a learner folder imports no other learner folder');
  });

  it('lets only the registry of the seam import a learner folder', () => {
    const out = lint(tree({
      'src/core/learning/registry.ts': "import { cerDefinition } from './cer/definition.ts';\n",
      'src/core/learning/step-credit.ts': "import { distill } from './cer/distill.ts';\n",
      'src/core/learning/cer/definition.ts': 'export const cerDefinition = {};\n',
      'src/core/learning/cer/distill.ts': 'export const distill = 1;\n',
    }));
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('Architecture boundary violations (1)');
    expect(out.stderr).toContain('src/core/learning/step-credit.ts:1 imports ./cer/distill.ts: the learning seam imports no learner folder');
  });
});
