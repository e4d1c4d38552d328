import { describe, expect, it } from 'vitest';
import { scriptOnScratchTrees } from '../support/script-fixture.ts';

const { tree, lint } = scriptOnScratchTrees('check-structure.mjs');
const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');

describe('scripts/check-structure.mjs', () => {
  it('passes a function of 120 lines and a file of 400', () => {
    const fn = `export function ok(): void {\n${body(118)}\n}\n`;
    const file = `${fn}${Array.from({ length: 400 - 120 }, (_, i) => `export const c${i} = ${i};`).join('\n')}\n`;
    const out = lint(tree({ 'src/core/a.ts': file }));
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
  });

  it('fails on a 121-line arrow function inside a class and on a 401-line file, naming each', () => {
    const cls = `export class A {\n  run = (): void => {\n${body(119)}\n  };\n}\n`;
    const long = Array.from({ length: 401 }, (_, i) => `export const c${i} = ${i};`).join('\n') + '\n';
    const out = lint(tree({ 'src/ui/a.tsx': cls, 'src/core/b.ts': long }));
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('src/ui/a.tsx:2: function run is 121 lines (at most 120)');
    expect(out.stderr).toContain('src/core/b.ts: 401 lines (at most 400)');
  });
});
