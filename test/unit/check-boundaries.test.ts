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
    const out = lint(tree({ 'src/ui/app/view.tsx': "import { x } from '../../core/settings.ts';\nimport { IdbStepRowStore } from '../../adapters/idb/idb-step-row-store.ts';\n" }));
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('src/ui/app/view.tsx:2 imports ../../adapters/idb/idb-step-row-store.ts');
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
      'src/learners/tfgrpo/core/rules.ts': "import { a } from '../../cer/core/skill-variables.ts';\nimport { b } from '../../../core/learning/shared/skill-variables.ts';\n",
      'src/core/learning/shared/skill-variables.ts': 'export const b = 1;\n',
      'src/learners/cer/core/skill-variables.ts': 'export const a = 1;\n',
    }));
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('Architecture boundary violations (1)');
    expect(out.stderr).toContain('src/learners/tfgrpo/core/rules.ts:1 imports ../../cer/core/skill-variables.ts: a learner folder imports no other learner folder');
  });

  it('lets only the registry index import a learner folder (its glob counts as importing every file it matches)', () => {
    const out = lint(tree({
      'src/core/learning/registry/registry.ts': "export const all = import.meta.glob('../../../learners/*/definition.ts', { eager: true });\n",
      'src/core/learning/step-credit.ts': "import { distill } from '../../learners/cer/core/distill.ts';\n",
      'src/learners/cer/definition.ts': "import { distill } from './core/distill.ts';\nexport const definition = { distill };\n",
      'src/learners/cer/core/distill.ts': 'export const distill = 1;\n',
    }));
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('Architecture boundary violations (1)');
    expect(out.stderr).toContain('src/core/learning/step-credit.ts:1 imports ../../learners/cer/core/distill.ts: only the registry index imports a learner folder (core imports no learner)');
  });
});

/**
 * Issue 32: 13 planted breaches, each in a tree that is otherwise clean; every
 * one must be refused. Before the lint parsed and resolved imports, the last
 * four passed (a bare import across a learner wall, a learner importing the
 * registry index, a cycle inside learning/, core reading globalThis['chrome']).
 */
const PLANTED: Record<string, Record<string, string>> = {
  'core imports the browser polyfill': { 'src/core/agent/a.ts': "import browser from 'webextension-polyfill';\n" },
  'core imports idb': { 'src/core/memory/a.ts': "import { openDB } from 'idb';\n" },
  'core imports an adapter': { 'src/core/agent/a.ts': "import { X } from '../../adapters/idb/idb-step-row-store.ts';\n" },
  'core calls chrome.*': { 'src/core/agent/a.ts': 'export const q = () => chrome.tabs.query({});\n' },
  'ui imports an adapter': { 'src/ui/app/view.tsx': "import { IdbStepRowStore } from '../../adapters/idb/idb-step-row-store.ts';\n" },
  'content imports the background': { 'src/content/act/click.ts': "import { b } from '../../background/index.ts';\n" },
  'a cycle between folders of core': {
    'src/core/agent/a.ts': "import type { B } from '../policy/b.ts';\nexport type A = 1;\n",
    'src/core/policy/b.ts': "import type { A } from '../agent/a.ts';\nexport type B = 2;\n",
  },
  'a learner imports another learner': { 'src/learners/tfgrpo/core/rules.ts': "import { a } from '../../cer/core/skill.ts';\n", 'src/learners/cer/core/skill.ts': 'export const a = 1;\n' },
  'core imports a learner folder': { 'src/core/learning/step-credit.ts': "import { d } from '../../learners/cer/core/distill.ts';\n", 'src/learners/cer/core/distill.ts': 'export const d = 1;\n' },
  'a bare import across a learner wall': { 'src/learners/tfgrpo/core/rules.ts': "import '../../cer/core/skill.ts';\n", 'src/learners/cer/core/skill.ts': 'export const a = 1;\n' },
  'a learner imports the registry index': {
    'src/learners/evotest/factory.ts': "import { LEARNER_FACTORIES } from '../../core/learning/registry/registry-factories.ts';\n",
    'src/core/learning/registry/registry-factories.ts': 'export const LEARNER_FACTORIES = {};\n',
  },
  'a cycle inside learning/': {
    'src/core/learning/shared/skills.ts': "import { credit } from '../step-credit.ts';\nexport const skills = credit;\n",
    'src/core/learning/step-credit.ts': "import { skills } from './shared/skills.ts';\nexport const credit = 1;\nexport const again = skills;\n",
  },
  "core reads globalThis['chrome']": { 'src/core/agent/a.ts': "export const tabs = (globalThis['chrome'] as { tabs: unknown }).tabs;\n" },
  'core reaches the registry index through a default parameter': {
    'src/core/settings-load.ts': "import { LEARNERS } from './learning/registry/registry.ts';\nexport const load = (registry = LEARNERS) => registry;\n",
    'src/core/learning/registry/registry.ts': 'export const LEARNERS = [];\n',
  },
};

describe('scripts/check-boundaries.mjs refuses every planted breach (issue 32)', () => {
  for (const [name, files] of Object.entries(PLANTED)) {
    it(`refuses: ${name}`, () => {
      const out = lint(tree(files));
      expect(out.status).toBe(1);
      expect(out.stderr).toContain('Architecture boundary violations');
    });
  }

  it('plants 14 breaches, and passes each tree once its breach is gone', () => {
    expect(Object.keys(PLANTED)).toHaveLength(14);
    const clean = lint(tree({
      'src/core/agent/a.ts': "import type { B } from '../policy/b.ts';\nexport const t = globalThis.setTimeout;\nexport const last = (window: number) => window + 1;\n",
      'src/core/policy/b.ts': 'export type B = 2;\n',
      'src/learners/tfgrpo/core/rules.ts': "import '../../../core/learning/shared/skill.ts';\nimport type { Learner } from '../../../core/learning/learner.ts';\nexport type L = Learner;\n",
      'src/core/learning/shared/skill.ts': 'export const a = 1;\n',
      'src/core/learning/learner.ts': 'export interface Learner { id: string }\n',
      'src/core/learning/registry/registry.ts': "import { d } from '../../../learners/tfgrpo/core/rules.ts';\n",
    }));
    expect(clean.stderr).toBe('');
    expect(clean.status).toBe(0);
  });

  it('refuses a bare import across a learner wall, naming file and line', () => {
    const out = lint(tree(PLANTED['a bare import across a learner wall']!));
    expect(out.stderr).toContain('src/learners/tfgrpo/core/rules.ts:1 imports ../../cer/core/skill.ts: a learner folder imports no other learner folder');
  });

  it('refuses a learner importing the registry index, or a seam file that reaches other learners', () => {
    expect(lint(tree(PLANTED['a learner imports the registry index']!)).stderr)
      .toContain('src/learners/evotest/factory.ts:1 imports ../../core/learning/registry/registry-factories.ts: a learner folder imports no registry index');
    const through = lint(tree({
      'src/learners/jitrl/core/actions.ts': "import type { Built } from '../../../core/learning/learner-actions.ts';\nexport type A = Built;\n",
      'src/core/learning/learner-actions.ts': "export type { Built } from './registry/registry.ts';\n",
      'src/core/learning/registry/registry.ts': "export type { Built } from '../../../learners/cer/core/built.ts';\n",
      'src/learners/cer/core/built.ts': 'export type Built = 1;\n',
    }));
    expect(through.status).toBe(1);
    expect(through.stderr).toContain('src/learners/jitrl/core/actions.ts:1 imports ../../../core/learning/learner-actions.ts, which reaches the learner folder cer');
  });

  it('refuses a cycle at any folder level: between a folder and a file of learning/, and between two folders deeper down', () => {
    expect(lint(tree(PLANTED['a cycle inside learning/']!)).stderr)
      .toContain('src/core/learning/shared/skills.ts imports core/learning/step-credit.ts, which imports core/learning/shared back');
    const deep = lint(tree({
      'src/core/page/grammar/parse.ts': "import { fmt } from '../render/format.ts';\nexport const parse = fmt;\n",
      'src/core/page/render/format.ts': "import type { P } from '../grammar/types.ts';\nexport const fmt = 1;\n",
      'src/core/page/grammar/types.ts': 'export type P = 1;\n',
    }));
    expect(deep.status).toBe(1);
    expect(deep.stderr).toContain('imports core/page/render, which imports core/page/grammar back');
  });

  it('refuses a cycle between two files of one folder (as learner-actions ↔ learner-definition was)', () => {
    const out = lint(tree({
      'src/core/learning/learner-actions.ts': "import type { Built } from './learner-definition.ts';\nexport type A = Built;\n",
      'src/core/learning/learner-definition.ts': "import type { A } from './learner-actions.ts';\nexport type Built = A;\n",
    }));
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('import cycle between files: src/core/learning/learner-actions.ts ↔ src/core/learning/learner-definition.ts');
  });

  it("refuses core reaching a browser global through the global object, however it is spelled", () => {
    const out = lint(tree({
      'src/core/agent/a.ts': [
        "export const a = globalThis['chrome'];",
        'export const b = globalThis.document;',
        "export const c = self[`indexedDB`];",
        "const name = 'chr' + 'ome';",
        'export const d = globalThis[name];',
        'const g = globalThis;',
        '// chrome.tabs in a comment, and "window.open" in a string, are not code:',
        "export const e = 'window.open';",
        'declare const chrome: { tabs: unknown };',
        'export const f = chrome.tabs;',
      ].join('\n'),
    }));
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('Architecture boundary violations (6)');
    expect(out.stderr).toContain('src/core/agent/a.ts:9 uses the browser global chrome (declared as an ambient global)');
    expect(out.stderr).toContain('src/core/agent/a.ts:1 uses the browser global globalThis.chrome');
    expect(out.stderr).toContain('src/core/agent/a.ts:2 uses the browser global globalThis.document');
    expect(out.stderr).toContain('src/core/agent/a.ts:3 uses the browser global self.indexedDB');
    expect(out.stderr).toContain('src/core/agent/a.ts:5 uses the browser global globalThis[…] (a global by a computed name)');
    expect(out.stderr).toContain('src/core/agent/a.ts:6 uses the browser global globalThis (the global object itself)');
  });

  it('sees every form of import: export from, import(), import type in a type, import = require', () => {
    const out = lint(tree({
      'src/core/agent/a.ts': [
        "export * from '../../adapters/one.ts';",
        "export const two = () => import('../../adapters/two.ts');",
        "export type Three = import('../../adapters/three.ts').Three;",
        "import four = require('../../adapters/four.ts');",
      ].join('\n'),
    }));
    expect(out.stderr).toContain('Architecture boundary violations (4)');
  });
});
