/**
 * Issue 23, learning finding 9 (honesty of tests): unit tests and fixtures use
 * pages and instructions written for the test, never the shipped benchmark's
 * (a rule tuned to a benchmark page's wording would pass both). This reads
 * every instruction of the shipped suite's tasks (a `${…}` part matches
 * anything short) and looks for it in test/unit, test/support and
 * test/fixtures. Benchmark-runner tests that load the suite itself do not copy
 * its text, so they pass.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path, ext) : ext.test(name) ? [path] : [];
  });
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The suite's instructions as patterns: case-insensitive, trailing punctuation dropped, `${…}` = up to 40 characters. */
export function instructionPatterns(sources: readonly string[]): { text: string; pattern: RegExp }[] {
  const out: { text: string; pattern: RegExp }[] = [];
  for (const source of sources) {
    for (const m of source.matchAll(/instruction:\s*(['`])((?:(?!\1).)+)\1/g)) {
      const text = m[2]!.replace(/[.!?]+$/, '');
      const parts = text.split(/\$\{[^}]*\}/).map(escape);
      out.push({ text, pattern: new RegExp(parts.join('.{1,40}?'), 'i') });
    }
  }
  return out;
}

describe('tests do not copy the benchmark (finding 9)', () => {
  const suite = files(join(ROOT, 'bench', 'suites'), /\.ts$/).map((f) => readFileSync(f, 'utf8'));
  const patterns = instructionPatterns(suite);

  it('reads the shipped instructions', () => {
    expect(patterns.length).toBeGreaterThanOrEqual(20);
    expect(instructionPatterns(['instruction: `Paint the fence ${colour}.`'])[0]!.pattern.test('paint the fence sky blue')).toBe(true);
  });

  it('no unit test, test support file or fixture holds a shipped instruction', () => {
    const scanned = ['unit', 'support', 'fixtures'].flatMap((d) => files(join(ROOT, 'test', d), /\.(ts|tsx|html|json|js)$/));
    const copies = scanned.flatMap((f) => {
      const text = readFileSync(f, 'utf8');
      return patterns.filter((p) => p.pattern.test(text)).map((p) => `${relative(ROOT, f)}: "${p.text}"`);
    });
    expect(copies).toEqual([]);
  });
});
