import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The scaffold runs on a copy of the source tree inside the repository (so the
// copy resolves node_modules), never on the tree itself. The script is copied
// too and run as `npm run new-learner -- <id> "Label"` runs it: no --root, so
// it finds the tree from its own location.
const repo = join(import.meta.dirname, '../..');
const copy = mkdtempSync(join(repo, '.new-learner-test-'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));
const filesUnder = (dir: string): Map<string, string> => new Map(readdirSync(dir, { recursive: true, encoding: 'utf8' })
  .filter((f) => statSync(join(dir, f)).isFile()).map((f) => [relative(dir, join(dir, f)), readFileSync(join(dir, f), 'utf8')]));
const scaffold = (...args: string[]) =>
  spawnSync(process.execPath, [join(copy, 'scripts/new-learner.mjs'), ...args], { cwd: copy, encoding: 'utf8' });

describe('npm run new-learner', () => {
  it('scaffolds a learner that passes the registry meta-test and the typecheck', async () => {
    cpSync(join(repo, 'src'), join(copy, 'src'), { recursive: true });
    mkdirSync(join(copy, 'scripts'), { recursive: true });
    cpSync(join(repo, 'scripts/new-learner.mjs'), join(copy, 'scripts/new-learner.mjs'));
    cpSync(join(repo, 'scripts/cli-help.mjs'), join(copy, 'scripts/cli-help.mjs'));
    cpSync(join(repo, 'scripts/learner-names.mjs'), join(copy, 'scripts/learner-names.mjs'));
    // A learner's tests (in its folder) use the test support files.
    cpSync(join(repo, 'test/support'), join(copy, 'test/support'), { recursive: true });
    mkdirSync(join(copy, 'test/unit'), { recursive: true });
    cpSync(join(repo, 'test/unit/ui-fake-connector.ts'), join(copy, 'test/unit/ui-fake-connector.ts'));

    const before = filesUnder(join(copy, 'src'));
    const out = scaffold('tallyho', 'Tally-ho');
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    // One folder, and nothing else edited: the registry globs the learner folders.
    const after = filesUnder(join(copy, 'src'));
    const added = [...after.keys()].filter((f) => !before.has(f));
    expect(added.every((f) => f.startsWith('learners/tallyho/'))).toBe(true);
    expect(added.length).toBeGreaterThan(5);
    expect([...before].filter(([f, text]) => after.get(f) !== text)).toEqual([]);

    // vitest resolves the registry's import.meta.glob in the copy as in the tree.
    const { LEARNERS } = await import(join(copy, 'src/core/learning/registry/registry.ts'));
    const { LEARNER_FACTORIES } = await import(join(copy, 'src/core/learning/registry/registry-factories.ts'));
    const { CANDIDATE_EVIDENCE_VIEWS, EVIDENCE_VIEWS } = await import(join(copy, 'src/ui/app/learner-evidence.tsx'));
    const { registryProblems } = await import(join(copy, 'test/support/registry-meta.ts'));
    expect((LEARNERS as { id: string }[]).map((d) => d.id)).toContain('tallyho');
    expect(Object.keys(EVIDENCE_VIEWS)).toContain('tallyho');
    expect(await registryProblems({ learners: LEARNERS, factories: LEARNER_FACTORIES, evidenceViews: EVIDENCE_VIEWS, candidateEvidenceViews: CANDIDATE_EVIDENCE_VIEWS })).toEqual([]);

    writeFileSync(join(copy, 'tsconfig.json'), JSON.stringify({ extends: '../tsconfig.json', include: ['src', 'test/support/registry-meta.ts'] }));
    const tsc = spawnSync(process.execPath, [join(repo, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', join(copy, 'tsconfig.json')], { encoding: 'utf8' });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);

    // And removing it is rm -r: the tree typechecks again with no other edit.
    rmSync(join(copy, 'src/learners/tallyho'), { recursive: true });
    const again = spawnSync(process.execPath, [join(repo, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', join(copy, 'tsconfig.json')], { encoding: 'utf8' });
    expect(again.stdout + again.stderr).toBe('');
    expect(again.status).toBe(0);
    expect(filesUnder(join(copy, 'src'))).toEqual(before);
  }, 300_000);

  it('refuses an id that exists, that already names something in the code, or is not an id, changing nothing', () => {
    scaffold('tallyho');
    const again = scaffold('tallyho');
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('src/learners/tallyho/ exists already');
    // "demo" (the demo sites, demonstrations) could not be told apart from a learner by the learner-ids lint.
    const taken = scaffold('demo');
    expect(taken.status).toBe(1);
    expect(taken.stderr).toContain('"demo" already names something in the code (src/');
    // So could a label the code already uses, or an id spelled another way in the code ("Episode", "EPISODE").
    const label = scaffold('zorkmid', 'Episode store');
    expect(label.status).toBe(1);
    expect(label.stderr).toContain('"zorkmid" already names something in the code (src/');
    expect(existsSync(join(copy, 'src/learners/zorkmid'))).toBe(false);
    const bad = scaffold('Bad-Id');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('"Bad-Id" is not a learner id');
  });
});
