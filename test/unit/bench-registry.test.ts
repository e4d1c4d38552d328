/**
 * Issue 23: the benchmark reads the registry instead of naming learners —
 * configurations parse against registry ids, per-learner settings and
 * switches go by id, ablation rows and run reports come from the factories.
 */
import { describe, expect, it } from 'vitest';
import { ABLATED } from '../../bench/ablation.ts';
import { attemptSettings, LEARNER_CONFIGS, mutantSettings, parseLearnerConfig, withoutCorrections, type BenchOptions } from '../../bench/bench-runner.ts';
import type { BenchTask } from '../../bench/suite.ts';
import { newLineage } from '../../src/learners/evotest/core/lineage.ts';
import { BENCH_CONFIGURATIONS, learnersOff, learnersOnly, REGISTERED_LEARNERS } from '../../src/core/learning/registry/registry-factories.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import { SEED } from '../../src/learners/evotest/test/evotest-helpers.ts';

describe('the benchmark over the registry', () => {
  it('parses configurations against the registry ids, whatever their order', () => {
    expect(LEARNER_CONFIGS.map((c) => parseLearnerConfig(c).ok)).toEqual(LEARNER_CONFIGS.map(() => true));
    expect(parseLearnerConfig('jitrl+cer')).toEqual({ ok: true, ids: ['jitrl', 'cer'], replay: false });
    expect(parseLearnerConfig('cer+jitrl+replay')).toEqual({ ok: true, ids: ['cer', 'jitrl'], replay: true });
    expect(parseLearnerConfig('jitrl+ranker')).toEqual({
      ok: false, message: `unknown learner "jitrl+ranker" (static, or registry ids joined by "+": ${REGISTERED_LEARNERS.map((d) => d.id).join(', ')}; "+replay" adds replay)`,
    });
  });

  it('switches on every learner a configuration names and lays run settings over a learner\'s own', () => {
    const task = { maxSteps: 9, startUrl: 'http://shop.test/' } as BenchTask;
    const options = { seed: 3, learnerSettings: withoutCorrections() } as unknown as BenchOptions;
    const s = attemptSettings(options, task, ['metattl']);
    const learners = s.learners as Record<string, Record<string, unknown>>;
    expect(learners['metattl']?.['enabled']).toBe(true);
    expect(learners['jitrl']?.['learnCorrections']).toBe(false);
    expect(learners['jitrl']?.['enabled']).toBe(true);
    // Declared by the definitions (`mutants`), not found by scanning settings for a key.
    expect(withoutCorrections()).toEqual({ jitrl: { learnCorrections: false } });
    expect(mutantSettings('no-such-mutant')).toEqual({});
    expect([s.agent.maxSteps, s.agent.seed]).toEqual([9, 3]);
  });

  it('takes ablation rows and run reports from the factories', async () => {
    expect(ABLATED.map((a) => [a.id, a.rows.length, a.rows[0]!.name])).toEqual([['jitrl', 14, 'paper only (Algorithm 1)']]);
    const report = REGISTERED_LEARNERS.find((d) => d.runReport)!.runReport!;
    expect(report.summarize([])).toBeNull();
    expect(report.summarize([newLineage({ origin: 'https://a.test', template: 't', seed: SEED, now: 0 })])).toEqual({
      title: 'What the EvoTest evolver changed', text: '0 children kept over 1 lineages (0 invalid dropped); 0 of them ran, for 0 of 0 episodes.',
    });
  });

  it('switches every registry learner off for runs that measure the agent alone, keeping their other settings', () => {
    const off = learnersOff({ ...DEFAULT_SETTINGS, learners: { jitrl: { beta: 2 }, other: { x: 1 } } }) as Record<string, Record<string, unknown>>;
    expect(Object.keys(off).sort()).toEqual([...REGISTERED_LEARNERS.map((d) => d.id), 'other'].sort());
    expect(REGISTERED_LEARNERS.map((d) => d.enabled({ ...DEFAULT_SETTINGS, learners: off }))).toEqual(REGISTERED_LEARNERS.map(() => false));
    expect([off['jitrl']?.['beta'], off['other']]).toEqual([2, { x: 1 }]);
  });

  it('bench:trust part (a) runs the learner set its figures were measured with (JitRL and CER off by hand before the registry)', () => {
    const parsed = parseLearnerConfig(BENCH_CONFIGURATIONS.hijack);
    expect(parsed.ok).toBe(true);
    const ids = parsed.ok ? parsed.ids : [];
    const before = { ...DEFAULT_SETTINGS, learners: { jitrl: { enabled: false }, cer: { enabled: false } } };
    const now = { ...DEFAULT_SETTINGS, learners: learnersOnly(DEFAULT_SETTINGS, ids) };
    const on = (s: typeof DEFAULT_SETTINGS) => REGISTERED_LEARNERS.filter((d) => d.enabled(s)).map((d) => d.id);
    expect(on(now)).toEqual(on(before));
    expect(on(now)).toEqual(['tfgrpo']);
    expect(() => learnersOnly(DEFAULT_SETTINGS, ['nope'])).toThrow(/no learner "nope"/);
  });

  it('says a learner\'s evidence in words for the demo (LearnerFactory.evidenceText)', () => {
    const texts = REGISTERED_LEARNERS.flatMap((d) => (d.evidenceText ? [[d.id, d.evidenceText] as const] : []));
    expect(texts.map(([id]) => id)).toEqual(['jitrl']);
    const text = texts[0]![1];
    expect(text.step?.(undefined)).toBe('V(s) = — from 0 neighbours');
    expect(text.step?.({ v: 0.415, neighbours: [{ transitionId: 't', episodeId: 'e', task: 'x', action: 'a', similarity: 1, ret: 1 }], droppedMemoryActions: 0 })).toBe('V(s) = 0.41 from 1 neighbours');
    expect(text.candidate?.({ q: 1, advantage: 0.5, normAdvantage: 0.5, support: 2, valueKind: 'known' })).toEqual({ 'Ã': '0.50', evidence: 'known ×2' });
    expect(text.candidate?.(undefined)).toEqual({ 'Ã': '—', evidence: 'none' });
  });
});
