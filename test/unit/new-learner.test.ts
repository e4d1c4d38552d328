import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The scaffold runs on a copy of the source tree inside the repository (so the
// copy resolves node_modules), never on the tree itself. The script is copied
// too and run as `npm run new-learner -- <id> "Label"` runs it: no --root, so
// it finds the tree from its own location.
const repo = join(import.meta.dirname, '../..');
const copy = mkdtempSync(join(repo, '.new-learner-test-'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));
const scaffold = (...args: string[]) =>
  spawnSync(process.execPath, [join(copy, 'scripts/new-learner.mjs'), ...args], { cwd: copy, encoding: 'utf8' });

describe('npm run new-learner', () => {
  it('scaffolds a learner that passes the registry meta-test and the typecheck', async () => {
    cpSync(join(repo, 'src'), join(copy, 'src'), { recursive: true });
    mkdirSync(join(copy, 'scripts'), { recursive: true });
    cpSync(join(repo, 'scripts/new-learner.mjs'), join(copy, 'scripts/new-learner.mjs'));
    cpSync(join(repo, 'scripts/cli-help.mjs'), join(copy, 'scripts/cli-help.mjs'));
    mkdirSync(join(copy, 'test/support'), { recursive: true });
    cpSync(join(repo, 'test/support/registry-meta.ts'), join(copy, 'test/support/registry-meta.ts'));

    const out = scaffold('demo', 'Demo learner');
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    expect(readFileSync(join(copy, 'src/core/learning/registry.ts'), 'utf8')).toContain("import { demoDefinition } from './demo/definition.ts';");

    const { LEARNERS } = await import(join(copy, 'src/core/learning/registry.ts'));
    const { LEARNER_FACTORIES } = await import(join(copy, 'src/core/learning/registry-factories.ts'));
    const { CANDIDATE_EVIDENCE_VIEWS, EVIDENCE_VIEWS } = await import(join(copy, 'src/ui/app/learner-evidence.tsx'));
    const { registryProblems } = await import(join(copy, 'test/support/registry-meta.ts'));
    expect((LEARNERS as { id: string }[]).map((d) => d.id)).toContain('demo');
    expect(await registryProblems({ learners: LEARNERS, factories: LEARNER_FACTORIES, evidenceViews: EVIDENCE_VIEWS, candidateEvidenceViews: CANDIDATE_EVIDENCE_VIEWS })).toEqual([]);

    writeFileSync(join(copy, 'tsconfig.json'), JSON.stringify({ extends: '../tsconfig.json', include: ['src', 'test'] }));
    const tsc = spawnSync(process.execPath, [join(repo, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', join(copy, 'tsconfig.json')], { encoding: 'utf8' });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  }, 180_000);

  it('refuses an id that exists or is not an id, changing nothing', () => {
    const again = scaffold('demo');
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('src/core/learning/demo/ exists already');
    const bad = scaffold('Bad-Id');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('"Bad-Id" is not a learner id');
  });
});
