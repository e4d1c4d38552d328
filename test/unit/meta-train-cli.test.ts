import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkProvider, MetaTrainUsageError, NO_MODEL_MESSAGE } from '../../bench/metattl/meta-train-run.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';

describe('meta-train without a model', () => {
  it('refuses to start, says why and what to pass, and runs nothing', () => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OPENAI_')));
    const out = spawnSync(resolve(import.meta.dirname, '../../node_modules/.bin/tsx'), [
      '--import', resolve(import.meta.dirname, '../../scripts/node-glob-loader.mjs'),
      resolve(import.meta.dirname, '../../bench/metattl/meta-train.ts'), '--train', 'a', '--val', 'b', '--budget', '10', '--no-progress',
    ], { env, encoding: 'utf8', timeout: 100_000 });
    expect(out.status).toBe(2);
    expect(out.stderr.trim()).toBe(NO_MODEL_MESSAGE);
    expect(out.stdout).toBe('');
  }, 120_000);

  it('checkProvider rejects the offline preset (no base URL or model)', () => {
    expect(() => checkProvider(null)).toThrow(MetaTrainUsageError);
    expect(() => checkProvider(DEFAULT_SETTINGS.provider)).toThrow(/needs a model/);
    const p = { ...DEFAULT_SETTINGS.provider, baseUrl: 'http://127.0.0.1:1/v1', model: 'm' };
    expect(checkProvider(p)).toBe(p);
  });
});

describe('benchmark rows that need a model', () => {
  it('metattl and jitrl+metattl need one; static and jitrl do not; the report says so instead of zeros', async () => {
    const { needsModelReason } = await import('../../bench/bench-runner.ts');
    const { markdownReport } = await import('../../bench/report.ts');
    const { NEEDS_MODEL } = await import('../../src/learners/metattl/core/guide-adaptation.ts');
    expect(needsModelReason('metattl')).toBe(NEEDS_MODEL);
    expect(needsModelReason('jitrl+metattl')).toBe(NEEDS_MODEL);
    expect(needsModelReason('jitrl')).toBeNull();
    expect(needsModelReason('static')).toBeNull();
    const text = markdownReport({
      suite: 's', policy: 'offline', policyDescription: 'd', seed: 0, attempts: 2, memory: 'fresh', profile: 'quick', learners: ['metattl'],
      tasks: [], summaries: [], targets: {}, records: [], crashed: [], needsModel: { metattl: NEEDS_MODEL }, startedAt: '', durationMs: 0,
    });
    expect(text).toContain('| metattl | needs a model |');
    expect(text).toContain(`- metattl: ${NEEDS_MODEL}`);
  });
});
