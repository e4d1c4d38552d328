import { describe, expect, it } from 'vitest';
import { checkConfiguration, taskTemplateOf } from '../core/configuration.ts';
import { diffConfigurations } from '../core/configuration-diff.ts';
import { SEED, TUNABLES } from './evotest-helpers.ts';

describe('EvoTest configuration schema', () => {
  it('accepts the seed configuration', () => {
    expect(checkConfiguration(SEED, TUNABLES)).toEqual({ ok: true, configuration: SEED });
  });

  it("rejects the paper's executable extractor as an unknown field", () => {
    const withExtractor = { ...SEED, stateAbstraction: { ...SEED.stateAbstraction, extractor: 'def extract(history):\n  return history[-1]' } };
    const check = checkConfiguration(withExtractor, TUNABLES);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.error).toMatch(/stateAbstraction.*extractor|Unrecognized key/);
  });

  it('rejects unknown top-level fields, functions and code in milestone phrases', () => {
    expect(checkConfiguration({ ...SEED, onStep: 'document.cookie' }, TUNABLES).ok).toBe(false);
    expect(checkConfiguration({ ...SEED, hyperparameters: { ...SEED.hyperparameters, temperature: () => 1 } }, TUNABLES).ok).toBe(false);
    for (const phrase of ['(x) => x.done', 'function f() {}', 'lambda s: s', '<script>', 'eval(page)']) {
      const check = checkConfiguration({ ...SEED, stateAbstraction: { ...SEED.stateAbstraction, milestonePhrases: [phrase] } }, TUNABLES);
      expect(check.ok, phrase).toBe(false);
    }
    expect(checkConfiguration({ ...SEED, stateAbstraction: { ...SEED.stateAbstraction, milestonePhrases: ['Order placed'] } }, TUNABLES).ok).toBe(true);
  });

  it('rejects out-of-range hyperparameters and repeated digest parts', () => {
    expect(checkConfiguration({ ...SEED, hyperparameters: { ...SEED.hyperparameters, temperature: 7 } }, TUNABLES).ok).toBe(false);
    expect(checkConfiguration({ ...SEED, hyperparameters: { ...SEED.hyperparameters, numCandidates: 2.5 } }, TUNABLES).ok).toBe(false);
    expect(checkConfiguration({ ...SEED, stateAbstraction: { ...SEED.stateAbstraction, keep: ['title', 'title'] } }, TUNABLES).ok).toBe(false);
    expect(checkConfiguration({ ...SEED, memoryRules: { ...SEED.memoryRules, hintPhrasing: 'command' } }, TUNABLES).ok).toBe(false);
  });

  it('diffs a child against its parent leaf by leaf', () => {
    const child = { ...SEED, guidance: 'Check the cart.', hyperparameters: { ...SEED.hyperparameters, temperature: 1 }, stateAbstraction: { ...SEED.stateAbstraction, keep: ['title' as const] } };
    expect(diffConfigurations(SEED, child)).toEqual([
      { path: 'guidance', before: '', after: 'Check the cart.' },
      { path: 'hyperparameters.temperature', before: '0.8', after: '1' },
      { path: 'stateAbstraction.keep', before: '[title, headings, controls]', after: '[title]' },
    ]);
  });

  it('derives task templates from explicit values', () => {
    expect(taskTemplateOf('Open order 12')).toBe(taskTemplateOf('open  order 15'));
    expect(taskTemplateOf('Set the name to "Ada"')).toBe('set the name to …');
    expect(taskTemplateOf('Add the Blue Mug to the cart')).not.toBe(taskTemplateOf('Add the Red Mug to the cart'));
  });
});
