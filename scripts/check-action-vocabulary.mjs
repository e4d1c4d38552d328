#!/usr/bin/env node
/**
 * The mutant that proves the action vocabulary has one home: a copy of the
 * sources gets one new action kind in the schema, and the compiler must then
 * fail in the vocabulary and in every place that handles each kind. A place
 * that swallows new kinds (a `default:` that does something) drops out of the
 * list and this check fails. See CONTRIBUTING, "Adding an action kind".
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { helpIfAsked } from './cli-help.mjs';

helpIfAsked('usage: node scripts/check-action-vocabulary.mjs   (npm run lint:vocabulary)\n  plants an action kind in a copy of src/ and fails unless the compiler stops in every place that handles kinds');

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/**
 * The places that must handle each kind: the vocabulary, and every file whose
 * switch over kinds ends in `unhandledKind(…)`. There are at least this many;
 * fewer means a place stopped checking.
 */
const VOCABULARY = 'src/core/page/action-vocabulary.ts';
const AT_LEAST = 6;

function handlers(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...handlers(path));
    else if (/\.tsx?$/.test(entry.name) && /unhandledKind\(\w/.test(readFileSync(path, 'utf8'))) out.push(relative(root, path).split(sep).join('/'));
  }
  return out;
}
const MUST_FAIL = [...new Set([VOCABULARY, ...handlers(join(root, 'src'))])];
if (MUST_FAIL.length < AT_LEAST) {
  console.error(`Only ${MUST_FAIL.length} places handle every action kind (${MUST_FAIL.join(', ')}); at least ${AT_LEAST} did.`);
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), 'apprentice-vocabulary-'));
try {
  cpSync(join(root, 'src'), join(work, 'src'), { recursive: true });
  const config = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8'));
  writeFileSync(join(work, 'tsconfig.json'), JSON.stringify({ ...config, include: ['src'] }));
  symlinkSync(join(root, 'node_modules'), join(work, 'node_modules'), 'dir');
  const schemaFile = join(work, 'src/core/page/action.ts');
  const schema = readFileSync(schemaFile, 'utf8');
  const anchor = "  z.strictObject({ type: z.literal('go_back') }),";
  if (!schema.includes(anchor)) throw new Error(`check-action-vocabulary: the anchor line is gone from src/core/page/action.ts: ${anchor}`);
  writeFileSync(schemaFile, schema.replace(anchor, `${anchor}\n  z.strictObject({ type: z.literal('planted_kind'), target: TargetSchema }),`));
  let output = '';
  try {
    execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', 'tsconfig.json'], { cwd: work, encoding: 'utf8' });
  } catch (err) {
    output = String(err.stdout ?? '');
  }
  const failed = new Set([...output.matchAll(/^(src\/[^(]+)\(/gm)].map((m) => m[1]));
  const missing = MUST_FAIL.filter((f) => !failed.has(f));
  if (missing.length > 0) {
    console.error(`A planted action kind compiled in ${missing.join(', ')}: those places would silently ignore a new kind.`);
    process.exit(1);
  }
  console.log(`lint:vocabulary: a planted action kind fails to compile in all ${MUST_FAIL.length} places that must handle it.`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
