/** scripts/check-secrets.mjs: masks and secrets regexes live only in src/core/secrets/. */
import { describe, expect, it } from 'vitest';
import { scriptOnScratchTrees } from '../support/script-fixture.ts';

const { tree, lint } = scriptOnScratchTrees('check-secrets.mjs');

const MODULE = {
  'src/core/secrets/secret-kinds.ts': "export const maskOf = (kind: string) => `{${kind}}`;\nconst WHOLE = /^\\{(?:password|payment)\\}$/;\n",
  'src/core/secrets/secret-fields.ts': "const NAMES = /\\b(password|card number|otp)\\b/i;\nexport const M = '{password}';\n",
  'src/core/agent/mask-use.ts': "import { maskOf } from '../secrets/secret-kinds.ts';\n// a comment may say {password} or '********'\nexport const shown = maskOf('password');\nconst tokens = /resulted in (\\d+) tokens/;\n",
};

describe('scripts/check-secrets.mjs', () => {
  it('passes masks and secrets regexes inside src/core/secrets/, and comments or model tokens elsewhere', () => {
    const out = lint(tree(MODULE));
    expect(out.stderr).toBe('');
    expect(out.stdout).toContain('check-secrets ok (1 files outside src/core/secrets/');
    expect(out.status).toBe(0);
  });

  it('fails on a mask written by hand or an ad-hoc secrets regex anywhere else, naming the place', () => {
    const out = lint(tree({
      ...MODULE,
      'src/content/observe/values.ts': "const a = 1;\nexport const PASSWORD_MASK = '********';\n",
      'src/core/learning/x/prompt.ts': "export const hide = (s: string) => s.replace(/pin|cvv/i, '(hidden)');\n",
      'src/core/agent/restart.ts': "export const lost = (t: string) => /\\{(password|payment)\\}/.test(t);\n",
      'bench/suite.ts': "export const re = new RegExp(`one-time-code|cc-number`);\nexport const t = `typed ${'x'} as {secret}`;\n",
      'src/ui/app/field.tsx': 'export const F = () => <span>••••••</span>;\n',
    }));
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('src/content/observe/values.ts:2 writes a mask by hand "********"');
    expect(out.stderr).toContain('src/core/learning/x/prompt.ts:1 has an ad-hoc secrets regex /pin|cvv/');
    expect(out.stderr).toContain('src/core/learning/x/prompt.ts:1 writes a mask by hand "(hidden)"');
    expect(out.stderr).toContain('src/core/agent/restart.ts:1 has an ad-hoc secrets regex');
    expect(out.stderr).toContain('bench/suite.ts:1 builds an ad-hoc secrets regex "one-time-code|cc-number"');
    expect(out.stderr).toContain('bench/suite.ts:2 writes a mask by hand " as {secret}"');
    expect(out.stderr).toContain('src/ui/app/field.tsx:1 writes a mask by hand "••••••"');
    expect(out.stderr).toContain('check-secrets: 7 problem(s)');
  });
});
